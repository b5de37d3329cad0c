// Uploads over the in-memory store with the real projector, document index and contract command
// handler, and a clock the test moves: an upload is its organization's alone, a refused one
// stores nothing, one no contract named is deleted (event and blob) once its retention ends, one
// a contract or a template version named never is, and a blob two uploads share stays while either
// needs it.
#include "commands/document_commands.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "commands/contract_commands.h"
#include "commands/document_expiry.h"
#include "commands/organization_templates.h"
#include "domain/id_generator.h"
#include "eventstore/memory_event_store.h"
#include "http/contract_requests.h"
#include "projections/memory_view_store.h"
#include "tests/support/eventually.h"

namespace esign::commands {
namespace {

constexpr int64_t kUploadDay = int64_t{1'772'323'200} * 1'000'000;  // 2026-03-01T00:00:00Z
constexpr auto kWeek = std::chrono::hours(24 * 7);

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(SOURCE_DIR) + "/tests/fixtures/documents/" + name, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

const eventstore::Actor kUploader{.client_id = "cli_sender", .organization_id = "org_acme"};
const esign::Actor kUploadSender{.client_id = "cli_sender",
                                 .organization_id = "org_acme",
                                 .permissions = {"contracts:create", "contracts:send"}};

class DocumentCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    index_ = std::make_unique<projections::DocumentIndex>(view_store_);
    projector_ = std::make_unique<projections::Projector>(
        *store_, view_store_, std::vector<projections::Projection*>{index_.get()});
    ASSERT_TRUE(projector_->Start());
    documents_ = std::make_unique<DocumentCommands>(*store_, *index_, *projector_,
                                                    RandomIdGenerator::Instance(), clock_);
    contracts_ = std::make_unique<ContractCommandHandler>(
        *store_, [](std::string_view) { return nullptr; },
        [](std::string_view, std::string_view, uint64_t) {}, RandomIdGenerator::Instance(), clock_);
    contracts_->SetFindUploads(
        [this](std::string_view organization, const std::vector<std::string>& ids) {
          return documents_->FindAll(organization, ids);
        });
  }

  void TearDown() override {
    if (expiry_) expiry_->Stop();
    projector_->Stop();
  }

  void Sync() { ASSERT_TRUE(projector_->WaitFor(store_->Size(), testing::kWaitLimit)); }

  // A draft made from the upload (which holds no text tags), with one signer and one signature
  // field.
  void CreateContractFrom(const std::string& document_id) {
    auto body = boost::json::parse(R"({
      "title": "Supply agreement",
      "participants": [{"name": "Ada Lovelace", "email": "ada@example.com", "action": "sign",
                        "recipientType": "individual", "executionChannel": "platform_hosted"}],
      "fields": [{"type": "signature", "participantIndex": 0, "documentIndex": 0, "page": 1,
                  "x": 72, "y": 72, "width": 150, "height": 40}]})")
                    .as_object();
    body["documents"] = boost::json::array{boost::json::object{{"documentId", document_id}}};
    auto created = contracts_->Create(kUploadSender, http::CommandFromRequest<CreateContract>(body),
                                      CommandMeta{});
    ASSERT_TRUE(created) << created.error().message << " "
                         << (created.error().details.empty() ? ""
                                                             : created.error().details[0].issue);
    Sync();
  }

  Result<UploadedDocument> Upload(std::string_view bytes, std::string name) {
    auto uploaded = documents_->Upload(kUploader, bytes, std::move(name));
    if (!uploaded) return std::unexpected(uploaded.error());
    return std::move(uploaded->document);
  }

  bool HasBlob(const UploadedDocument& document) {
    auto has = store_->blobs().Contains(document.cleaned_sha256);
    return has && *has;
  }

  ManualClock clock_{kUploadDay};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  projections::MemoryViewStore view_store_;
  std::unique_ptr<projections::DocumentIndex> index_;
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<DocumentCommands> documents_;
  std::unique_ptr<ContractCommandHandler> contracts_;
  std::unique_ptr<DocumentExpiry> expiry_;
};

TEST_F(DocumentCommandsTest, AnUploadIsItsOrganizationsAlone) {
  auto uploaded = Upload(Fixture("two_pages_tagged_cairo.pdf"), "nda.pdf");
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  EXPECT_EQ(uploaded->name, "nda.pdf");
  EXPECT_EQ(uploaded->pages.size(), 2u);
  EXPECT_EQ(uploaded->text_tags.size(), 2u);
  EXPECT_TRUE(HasBlob(*uploaded));
  EXPECT_EQ(uploaded->expires_at, "2026-03-08T00:00:00.000000Z");

  auto mine = documents_->Find("org_acme", uploaded->document_id);
  ASSERT_TRUE(mine) << mine.error().message;
  EXPECT_EQ(mine->cleaned_sha256, uploaded->cleaned_sha256);
  auto theirs = documents_->Find("org_other", uploaded->document_id);
  ASSERT_FALSE(theirs);
  EXPECT_EQ(theirs.error().code, ErrorCode::kDocumentNotFound);
  // Said exactly as for an id that does not exist.
  EXPECT_EQ(theirs.error().message, "document " + uploaded->document_id + " not found");
  EXPECT_EQ(documents_->Find("org_acme", "doc_unknown").error().message,
            "document doc_unknown not found");
}

TEST_F(DocumentCommandsTest, AnUploadWithAnIdempotencyKeyIsMadeOnce) {
  const std::string bytes = Fixture("tagged_handwritten.pdf");
  const eventstore::IdempotentRequest keyed{"cli_sender", "upload-1", std::string(64, 'a'),
                                            kUploader};
  auto first = documents_->Upload(kUploader, bytes, "a.pdf", keyed);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->replayed);
  const uint64_t size = store_->Size();
  auto again = documents_->Upload(kUploader, bytes, "a.pdf", keyed);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->document.document_id, first->document.document_id);
  EXPECT_EQ(store_->Size(), size);
  // The same key with another request is a reuse, and stores nothing.
  auto other = keyed;
  other.request_sha256 = std::string(64, 'b');
  auto reused = documents_->Upload(kUploader, bytes, "b.pdf", other);
  ASSERT_FALSE(reused);
  EXPECT_EQ(reused.error().code, ErrorCode::kIdempotencyKeyReused);
  EXPECT_EQ(store_->Size(), size);
  // A refused upload reserves no key: the same key then works for a good one.
  auto refusing = keyed;
  refusing.key = "upload-2";
  ASSERT_FALSE(documents_->Upload(kUploader, "%PDF-1.7\nnot really", "x.pdf", refusing));
  EXPECT_EQ(store_->Size(), size);
  auto good = documents_->Upload(kUploader, bytes, "x.pdf", refusing);
  ASSERT_TRUE(good) << good.error().message;
  EXPECT_FALSE(good->replayed);
}

TEST_F(DocumentCommandsTest, ARefusedUploadStoresNothing) {
  const uint64_t before = store_->Size();
  auto refused = Upload("%PDF-1.7\nnot really", "broken.pdf");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kDocumentInvalid);
  auto long_name = Upload(Fixture("tagged_handwritten.pdf"), std::string(201, 'n'));
  ASSERT_FALSE(long_name);
  EXPECT_EQ(long_name.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(store_->Size(), before);
}

TEST_F(DocumentCommandsTest, AnUnusedUploadIsDeletedWhenItsRetentionEnds) {
  auto uploaded = Upload(Fixture("tagged_handwritten.pdf"), "");
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  EXPECT_EQ(uploaded->name, "document.pdf");
  Sync();
  clock_.Advance(kWeek - std::chrono::seconds(1));
  ASSERT_EQ(documents_->DeleteExpired().value_or(99), 0u);
  EXPECT_TRUE(HasBlob(*uploaded));

  clock_.Advance(std::chrono::seconds(1));
  ASSERT_EQ(documents_->DeleteExpired().value_or(99), 1u);
  EXPECT_FALSE(HasBlob(*uploaded));
  auto gone = documents_->Find("org_acme", uploaded->document_id);
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, ErrorCode::kDocumentNotFound);
  auto stream = store_->ReadStream("document-" + uploaded->document_id, StreamVersion(1), 10);
  ASSERT_TRUE(stream);
  ASSERT_EQ(stream->size(), 2u);
  EXPECT_EQ(stream->back().type, kDocumentDeleted);
  Sync();
  EXPECT_EQ(documents_->DeleteExpired().value_or(99), 0u);
  EXPECT_FALSE(documents_->NextExpiry().value_or(std::optional<int64_t>(1)).has_value());
}

TEST_F(DocumentCommandsTest, AnUploadAContractNamedIsKept) {
  auto uploaded = Upload(Fixture("acroform_with_actions.pdf"), "a.pdf");
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  CreateContractFrom(uploaded->document_id);
  clock_.Advance(kWeek * 2);
  EXPECT_EQ(documents_->DeleteExpired().value_or(99), 0u);
  EXPECT_TRUE(HasBlob(*uploaded));
  EXPECT_TRUE(documents_->Find("org_acme", uploaded->document_id));
}

TEST_F(DocumentCommandsTest, AnUploadATemplateVersionNamedIsKept) {
  auto uploaded = Upload(Fixture("acroform_with_actions.pdf"), "a.pdf");
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  OrganizationTemplates templates(
      *store_, [](std::string_view) { return Result<TemplateCounts>(TemplateCounts{}); }, nullptr,
      RandomIdGenerator::Instance());
  templates.SetFindUploads(
      [this](std::string_view organization, const std::vector<std::string>& ids) {
        return documents_->FindAll(organization, ids);
      });
  auto request = boost::json::parse(R"({"name": "Order form",
    "roles": [{"templateRoleId": "buyer", "name": "Buyer", "action": "sign",
               "recipientType": "individual"}],
    "fields": [{"type": "signature", "roleIndex": 0, "page": 1, "x": 72, "y": 72, "width": 150,
                "height": 40}]})")
                     .as_object();
  request["documents"] =
      boost::json::array{boost::json::object{{"documentId", uploaded->document_id}}};
  auto made = templates.Create({"org_acme", kUploader}, request);
  ASSERT_TRUE(made) << made.error().message;
  ASSERT_TRUE(made->tmpl.versions.front().from_uploads());
  Sync();
  clock_.Advance(kWeek * 2);
  EXPECT_EQ(documents_->DeleteExpired().value_or(99), 0u);
  EXPECT_TRUE(HasBlob(*uploaded));
}

TEST_F(DocumentCommandsTest, ABlobTwoUploadsShareStaysWhileOneNeedsIt) {
  const std::string bytes = Fixture("tagged_handwritten.pdf");
  auto first = Upload(bytes, "first.pdf");
  ASSERT_TRUE(first) << first.error().message;
  clock_.Advance(std::chrono::hours(1));
  auto second = Upload(bytes, "second.pdf");
  ASSERT_TRUE(second) << second.error().message;
  ASSERT_EQ(first->cleaned_sha256, second->cleaned_sha256);
  Sync();
  clock_.Advance(kWeek - std::chrono::minutes(30));
  ASSERT_EQ(documents_->DeleteExpired().value_or(99), 1u);  // the first only
  EXPECT_TRUE(HasBlob(*second));
  EXPECT_TRUE(documents_->Find("org_acme", second->document_id));
  Sync();
  clock_.Advance(std::chrono::hours(1));
  ASSERT_EQ(documents_->DeleteExpired().value_or(99), 1u);
  EXPECT_FALSE(HasBlob(*second));
}

TEST_F(DocumentCommandsTest, TheSweepDeletesWhenWokenAfterTheClockMoved) {
  auto uploaded = Upload(Fixture("tagged_handwritten.pdf"), "a.pdf");
  ASSERT_TRUE(uploaded) << uploaded.error().message;
  Sync();
  expiry_ = std::make_unique<DocumentExpiry>(*documents_, clock_);
  expiry_->Start();
  clock_.Advance(kWeek);
  expiry_->Wake();
  EXPECT_TRUE(testing::Eventually([&] { return !HasBlob(*uploaded); }));
}

}  // namespace
}  // namespace esign::commands
