// The completion certificate: built from the contract's state and stream, drawn as the last pages
// of the sealed PDF before the seal. Checked with poppler (pdftotext, pdfsig), qpdf and openssl,
// as a reader would: the content is there, the seal still covers the whole file, the signed
// contract pages are the file's first bytes and the stored blob, many rows paginate, and text
// from clients is printed as text, never read as markup.
#include "documents/completion_certificate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/hex.h"
#include "base/sha256.h"
#include "documents/certificate_pages.h"
#include "documents/contract_documents.h"
#include "documents/pdf_page_append.h"
#include "documents/pdf_renderer.h"
#include "domain/stream_kinds.h"
#include "eventstore/memory_event_store.h"
#include "pdf_fixtures.h"
#include "pdf_test_support.h"

namespace esign::documents {
namespace {

using pdf_test::Contains;
using pdf_test::LoadTemplate;
using pdf_test::PdfFile;

// pdftotext breaks lines where a table cell wraps: every run of white space as one space.
std::string Flat(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\f';
    if (!space) {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  return out;
}

constexpr char kUnsignedSha[] = "3f9c2b1d0e8a7f6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817060504";

eventstore::Actor Api() {
  return {.client_id = "cli_acme",
          .organization_id = "org_acme",
          .ip = "198.51.100.7",
          .user_agent = "acme-backend/2.3"};
}
eventstore::Actor Signer(std::string ip, std::string user_agent) {
  return {.ip = std::move(ip), .user_agent = std::move(user_agent)};
}

class CompletionCertificateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = eventstore::MemoryEventStore::Create().value();
    cert_ = ServiceCertificate::CreateEphemeral().value();
    documents_ = std::make_unique<ContractDocuments>(
        [this](std::string_view id) -> std::shared_ptr<const Template> {
          return id == tmpl_->template_id ? tmpl_ : nullptr;
        },
        *store_, *cert_, clock_);
  }

  // The services agreement, sent, the client signed with an e-mail code; the provider is the
  // last signer, whose signature is decided but not yet appended.
  ContractState AllSigned() {
    ContractState state = pdf_test::ServicesState(*tmpl_, 2);
    state.id = "ctr_cert";
    state.status = ContractStatus::kSigning;
    state.sent_at = "2026-11-20T09:00:00.000000Z";
    state.rendered_document_sha256 = kUnsignedSha;
    for (const auto& binding : state.role_bindings) {
      const RoleDef* role = tmpl_->versions.front().FindRole(binding.template_role_id);
      state.prepared_roles.push_back({.template_role_id = binding.template_role_id,
                                      .participant_id = binding.participant_id,
                                      .routing_order = role->routing_order,
                                      .signature_placement = role->signature_placement});
    }
    Participant& client = state.participants[0];
    client.authentication = SignerAuthentication::kEmailOtp;
    client.execution_channel = ExecutionChannel::kPlatformHosted;
    client.signed_at = "2026-11-21T10:04:33.000000Z";
    client.signing_evidence = {{"signerName", client.name},
                               {"signatureText", client.name},
                               {"ipAddress", "203.0.113.41"},
                               {"userAgent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0"},
                               {"authenticationMethod", "email_otp"},
                               {"authenticatedAt", "2026-11-21T10:03:58.000000Z"},
                               {"channel", "platform_hosted"}};
    Participant& provider = state.participants[1];
    provider.execution_channel = ExecutionChannel::kIntegratorManaged;
    provider.signed_at = "2026-11-21T11:00:00.000000Z";
    provider.signing_evidence = {{"signerName", provider.name},   {"signatureText", provider.name},
                                 {"ipAddress", "192.0.2.99"},     {"userAgent", "ProviderApp/1.0"},
                                 {"authenticationMethod", "sso"}, {"channel", "integrator_managed"},
                                 {"reportedBy", "cli_acme"}};
    state.participants.push_back(
        pdf_test::Person("p_viewer", "Victor Viewer", ParticipantAction::kView));
    return state;
  }

  void Record(const std::string& type, const boost::json::object& data,
              const eventstore::Actor& actor) {
    ASSERT_TRUE(store_->Append(ContractStreamId("ctr_cert"), eventstore::ExpectedVersion::Any(),
                               {{.event_id = "evt_" + std::to_string(store_->Size()),
                                 .type = type,
                                 .data = boost::json::serialize(data),
                                 .actor = actor}}));
  }

  // Another stream's event first, so the contract's positions do not start at 0.
  void RecordLifecycle() {
    ASSERT_TRUE(
        store_->Append("template-tpl_x", eventstore::ExpectedVersion::Any(),
                       {{.event_id = "evt_tpl", .type = "template.imported", .data = "{}"}}));
    Record("contract.created", {{"contractId", "ctr_cert"}}, Api());
    Record("contract.prepared", {{"contractId", "ctr_cert"}}, Api());
    Record("contract.sent", {{"contractId", "ctr_cert"}}, Api());
    Record("signer.authenticated",
           {{"contractId", "ctr_cert"}, {"participantId", "p_client"}, {"method", "email_otp"}},
           Signer("203.0.113.41", "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0"));
    Record("signer.completed",
           {{"contractId", "ctr_cert"},
            {"participantId", "p_client"},
            {"evidence", {{"authenticationMethod", "email_otp"}}}},
           Signer("203.0.113.41", "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0"));
    Record("contract.signing_in_progress", {{"contractId", "ctr_cert"}}, Api());
  }

  Completion LastSignature() {
    return {.pending = {{"signer.completed",
                         {{"contractId", "ctr_cert"},
                          {"participantId", "p_provider"},
                          {"evidence", {{"authenticationMethod", "sso"}}}}}},
            .actor = Signer("198.51.100.200", "integrator-server/9.1"),
            .completed_at = "2026-11-21T11:00:01.000000Z"};
  }

  std::shared_ptr<const Template> tmpl_ =
      std::make_shared<const Template>(LoadTemplate("services-agreement.json"));
  ManualClock clock_{1'800'000'000'000'000};
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<ServiceCertificate> cert_;
  std::unique_ptr<ContractDocuments> documents_;
};

TEST_F(CompletionCertificateTest, TheSealedPdfEndsWithTheCertificateAndTheSealCoversIt) {
  RecordLifecycle();
  const ContractState state = AllSigned();
  auto sealed = documents_->Seal(state, LastSignature());
  ASSERT_TRUE(sealed) << sealed.error().message;
  const std::string pdf = store_->blobs().Get(sealed->signed_pdf_key).value();
  const std::string content = store_->blobs().Get(sealed->signed_content_sha256).value();
  EXPECT_EQ(Sha256Hex(content), sealed->signed_content_sha256);
  EXPECT_EQ(Sha256Hex(pdf), sealed->signed_pdf_key);
  // The signed contract pages are the sealed file's first bytes, and nothing but them.
  ASSERT_LT(content.size(), pdf.size());
  EXPECT_EQ(pdf.compare(0, content.size(), content), 0);
  EXPECT_EQ(PdfFile(content).PageCount(), 3);

  PdfFile file(pdf);
  EXPECT_GT(file.PageCount(), 3);
  const auto check = file.Check();
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_TRUE(Contains(check.out, "No syntax or stream encoding errors")) << check.out;
  const std::string sig = file.Signatures();
  EXPECT_TRUE(Contains(sig, "Signature Validation: Signature is Valid.")) << sig;
  EXPECT_TRUE(Contains(sig, "Total document signed")) << sig;
  EXPECT_FALSE(Contains(sig, "Not total document signed")) << sig;
  EXPECT_EQ(pdf_test::Count(sig, "Signature #"), 1u) << sig;

  const std::string text = Flat(file.Text());
  const auto head = store_->ledger().TreeHeads().value().back();
  for (const std::string& expected :
       {std::string("Certificate of completion"),
        std::string("p_client@example.com"),
        std::string("p_provider@example.com"),
        std::string("p_viewer@example.com"),
        std::string("203.0.113.41"),
        std::string("192.0.2.99"),
        std::string("198.51.100.7"),
        std::string("198.51.100.200"),
        std::string("integrator-server/9.1"),
        std::string("E-mail code"),
        std::string("Signing link and e-mail code"),
        std::string("API client credentials"),
        std::string("Sent for viewing"),
        std::string(kUnsignedSha),
        sealed->signed_content_sha256,
        ToHex(std::span<const uint8_t>(head.root)),
        std::string("contract-ctr_cert"),
        std::string("pending"),
        std::string("Completed: signed"),
        std::string("contract-ledger verify-bundle bundle.json --public-key ledger.pem"),
        std::string("GET /api/v1/contracts/ctr_cert/evidence/bundle"),
        std::string("head -c " + std::to_string(content.size()) + " signed.pdf"),
        KeyFingerprint(store_->ledger().PublicKeyPem())}) {
    EXPECT_TRUE(Contains(text, expected)) << expected << "\n" << text;
  }
  // The head covers every recorded event of the contract: positions 1..6 of a log of 7.
  EXPECT_EQ(head.size, 7u);
  EXPECT_TRUE(Contains(text, "1\u20136")) << text;
  EXPECT_TRUE(Contains(text, "size 7")) << text;
}

TEST_F(CompletionCertificateTest, BuiltFromStateAndRecordsWithPendingEventsLast) {
  RecordLifecycle();
  const ContractState state = AllSigned();
  const auto records = store_->ReadStream(ContractStreamId("ctr_cert"), StreamVersion(1), 100);
  ASSERT_TRUE(records);
  const Completion completion = LastSignature();
  const CompletionCertificate c =
      BuildCompletionCertificate({.state = &state,
                                  .tmpl = tmpl_.get(),
                                  .version = &tmpl_->versions.front(),
                                  .recorded = *records,
                                  .pending = completion.pending,
                                  .pending_actor = completion.actor,
                                  .completed_at = completion.completed_at});
  ASSERT_EQ(c.participants.size(), 3u);
  EXPECT_EQ(c.participants[0].outcome, "Signed");
  EXPECT_EQ(c.participants[0].required_authentication, "Signing link and e-mail code");
  EXPECT_EQ(c.participants[0].signing_method,
            "E-mail code, proven 2026-11-21 10:03:58 UTC; via the hosted signing page");
  EXPECT_EQ(c.participants[1].required_authentication, "By the integrator");
  EXPECT_EQ(c.participants[2].action, "View");
  ASSERT_EQ(c.events.size(), 8u);  // six recorded, the last signature and the completion
  EXPECT_EQ(c.events[0].position, 1u);
  EXPECT_EQ(c.events[0].actor, "Client cli_acme");
  EXPECT_EQ(c.events[3].description, "Identity proven by Zoë Ñúñez");
  EXPECT_EQ(c.events[3].authentication, "E-mail code");
  EXPECT_EQ(c.events[6].position, std::nullopt);
  EXPECT_EQ(c.events[6].description, "Signed by مريم");
  EXPECT_EQ(c.events[6].ip, "198.51.100.200");
  EXPECT_EQ(c.events[7].type, "contract.completed");
  EXPECT_EQ(c.events[7].time, "2026-11-21T11:00:01.000000Z");
  EXPECT_FALSE(c.tree_head);
  EXPECT_EQ(c.unsigned_sha256, kUnsignedSha);
}

// What a reader of the certificate is told: the organization by its name (its id in small print),
// the PDF's Author the name, a reminder that nobody was mailed as due, the address and browser of
// a person only on that person's events, and client ids unbroken across lines.
TEST_F(CompletionCertificateTest, NamesTheOrganizationAndShowsOnlyWhatHappenedAndWhoDidIt) {
  const std::string client = "cli_01jd4t5y2m8qxk7w3vb9nc6hre";
  const eventstore::Actor api{.client_id = client,
                              .organization_id = "org_acme",
                              .ip = "198.51.100.7",
                              .user_agent = "acme-backend/2.3"};
  Record("contract.created", {{"contractId", "ctr_cert"}}, api);
  Record("participant.reminded", {{"contractId", "ctr_cert"}, {"participantId", "p_provider"}},
         eventstore::Actor{.client_id = "system"});
  // Appended by the service while it answered the client's signature.
  Record("contract.signing_in_progress", {{"contractId", "ctr_cert"}},
         Signer("203.0.113.99", "Mozilla/5.0 SeenOnlyOnHerOwnEvents"));
  ContractState state = AllSigned();
  state.organization_id = "org_acme";
  state.organization_name = "Acme GmbH";
  auto sealed = documents_->Seal(state, LastSignature());
  ASSERT_TRUE(sealed) << sealed.error().message;
  PdfFile file(store_->blobs().Get(sealed->signed_pdf_key).value());
  const std::string text = Flat(file.Text());
  EXPECT_TRUE(Contains(text, "Organization Acme GmbH org_acme")) << text;
  EXPECT_TRUE(Contains(text, "Reminder due for")) << text;
  EXPECT_TRUE(Contains(text, "signing hosted by the integrator)")) << text;
  EXPECT_FALSE(Contains(text, "Reminder sent to")) << text;
  EXPECT_FALSE(Contains(text, "203.0.113.99")) << text;
  EXPECT_FALSE(Contains(text, "SeenOnlyOnHerOwnEvents")) << text;
  EXPECT_TRUE(Contains(text, "Client " + client)) << text;
  const auto info = pdf_test::Run("pdfinfo " + file.path());
  EXPECT_TRUE(Contains(info.out, "Author:          Acme GmbH")) << info.out;
}

TEST_F(CompletionCertificateTest, ManyParticipantsAndEventsFlowOntoFurtherPages) {
  ContractState state = AllSigned();
  for (int i = 0; i < 60; ++i) {
    state.participants.push_back(pdf_test::Person("p_copy" + std::to_string(i),
                                                  "Copy recipient " + std::to_string(i),
                                                  ParticipantAction::kReceiveCopy));
  }
  for (int i = 0; i < 150; ++i) {
    Record("participant.reminded", {{"contractId", "ctr_cert"}, {"participantId", "p_client"}},
           Api());
  }
  auto sealed = documents_->Seal(state, LastSignature());
  ASSERT_TRUE(sealed) << sealed.error().message;
  PdfFile file(store_->blobs().Get(sealed->signed_pdf_key).value());
  const auto pages = file.PageTexts();
  ASSERT_GT(pages.size(), 3u + 5u);
  const size_t certificate_pages = pages.size() - 3;
  for (size_t i = 3; i < pages.size(); ++i) {
    EXPECT_TRUE(Contains(
        pages[i], "Page " + std::to_string(i - 2) + " of " + std::to_string(certificate_pages)))
        << pages[i];
  }
  // Every page the events table continues on opens with its header row again.
  size_t headers = 0;
  for (const auto& page : pages) headers += Contains(page, "IP address and user agent") ? 1 : 0;
  EXPECT_GE(headers, 4u);
  const std::string text = file.Text();
  EXPECT_TRUE(Contains(text, "Copy recipient 59")) << text;
  EXPECT_EQ(pdf_test::Count(text, "Reminder sent to"), 150u);
  EXPECT_TRUE(Contains(file.Signatures(), "Total document signed"));
  EXPECT_EQ(file.Check().exit_code, 0);
}

TEST_F(CompletionCertificateTest, HostileTextIsPrintedAsTextAndClipped) {
  ContractState state = AllSigned();
  const std::string markup = "<b>Mallory</b> & <span foreground=\"red\">Co</span> &amp;";
  state.title = markup;
  state.participants[2].name = markup + " " + std::string(3000, 'W');
  state.participants[2].email = "\"<i>x</i>\"@example.com";
  state.participants[0].signing_evidence["userAgent"] =
      "Agent\x01\x1b[31m <script>alert(1)</script> " + std::string(2000, 'A') + " \xff\xfe end";
  Record("contract.created", {{"contractId", "ctr_cert"}}, Signer("::1", markup + "\x7f"));
  auto sealed = documents_->Seal(state, LastSignature());
  ASSERT_TRUE(sealed) << sealed.error().message;
  PdfFile file(store_->blobs().Get(sealed->signed_pdf_key).value());
  const std::string text = Flat(file.Text());
  EXPECT_TRUE(Contains(text, "<b>Mallory</b> & <span foreground=\"red\">Co</span> &amp;")) << text;
  EXPECT_TRUE(Contains(text, "\"<i>x</i>\"@example.com")) << text;
  EXPECT_TRUE(Contains(text, "<script>alert(1)<")) << text;
  // The 3000-character name and the 2000-character user agent are cut to a few lines.
  EXPECT_LT(std::count(text.begin(), text.end(), 'W'), 400) << text;
  EXPECT_LT(std::count(text.begin(), text.end(), 'A'), 400) << text;
  EXPECT_TRUE(Contains(text, "\u2026")) << text;
  EXPECT_EQ(file.Check().exit_code, 0);
  EXPECT_TRUE(Contains(file.Signatures(), "Total document signed"));
}

TEST(CertificateTextTest, EscapesMarkupAndControlCharacters) {
  EXPECT_EQ(MarkupEscape("<b>&'\""), "&lt;b&gt;&amp;&apos;&quot;");
  EXPECT_EQ(MarkupEscape("a\x01\x1f\x7f"
                         "b\nc"),
            "a   b\nc");
  EXPECT_EQ(MarkupEscape("ok \xff"), "ok \xef\xbf\xbd");
  EXPECT_EQ(MarkupEscape("\u00e9\u00e9\u00e9<", 2), "\u00e9\u00e9\u2026");
  EXPECT_EQ(MarkupEscape(std::string(5000, 'x')).size(), 300u + 3u);
  EXPECT_EQ(CertificateTime("2026-11-21T10:04:33.120000Z"), "2026-11-21 10:04:33 UTC");
  EXPECT_EQ(CertificateTime("2026-11-21T10:04:33+02:00"), "2026-11-21T10:04:33+02:00");
  EXPECT_EQ(CertificateTime(""), "");
}

TEST(CertificateTextTest, KeyFingerprintIsWhatOpensslPrints) {
  auto store = eventstore::MemoryEventStore::Create().value();
  const std::string pem = store->ledger().PublicKeyPem();

  const auto printed =
      pdf_test::Run("printf '%s' '" + pem + "' | openssl pkey -pubin -outform DER | sha256sum");
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_EQ(printed.out.substr(0, 64), KeyFingerprint(pem));
  EXPECT_EQ(KeyFingerprint("no key"), "");
}

TEST(PdfPageAppendTest, KeepsTheFirstPdfAsAPrefixAndAddsThePages) {
  const Template tmpl = LoadTemplate("services-agreement.json");
  const std::string first =
      RenderContractPdf(tmpl, tmpl.versions.front(), pdf_test::ServicesState(tmpl, 1)).value();
  const std::string second = MinimalPdf();
  auto joined = AppendPdfPages(first, second);
  ASSERT_TRUE(joined) << joined.error().message;
  EXPECT_EQ(joined->compare(0, first.size(), first), 0);
  PdfFile file(*joined);
  EXPECT_EQ(file.PageCount(), PdfFile(first).PageCount() + 2);
  EXPECT_EQ(file.Check().exit_code, 0) << file.Check().out;
  EXPECT_TRUE(Contains(file.PageTexts().back(), "Service agreement"));

  EXPECT_EQ(AppendPdfPages("not a pdf", second).error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(AppendPdfPages(first, "%PDF-1.7 garbage").error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
