// The template a contract command uses: a new contract starts only from a template its
// organization sees and that is not archived; a contract made before keeps its template whatever
// has become of it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "commands/contract_commands.h"
#include "domain/id_generator.h"
#include "domain/template_importer.h"
#include "eventstore/memory_event_store.h"
#include "http/contract_requests.h"

namespace esign::commands {
namespace {

std::string TextOf(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const esign::Actor kAcme{.client_id = "cli_acme",
                         .organization_id = "org_acme",
                         .permissions = {"contracts:create", "contracts:send", "contracts:update"}};
const esign::Actor kGlobex{.client_id = "cli_globex",
                           .organization_id = "org_globex",
                           .permissions = {"contracts:create", "contracts:send"}};

class ContractTemplateScopeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tmpl =
        ImportTemplateText(TextOf(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json"));
    ASSERT_TRUE(tmpl) << tmpl.error().message;
    tmpl->organization_id = "org_acme";
    template_ = std::make_shared<Template>(std::move(*tmpl));
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    handler_ = std::make_unique<ContractCommandHandler>(
        *store_, [this](std::string_view) { return template_; },
        [](std::string_view, std::string_view, uint64_t) {}, RandomIdGenerator::Instance(), clock_);
  }
  void TearDown() override { store_->Close(); }

  Result<CommandOutcome> CreateAs(const esign::Actor& actor) {
    auto body =
        boost::json::parse(TextOf(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json"))
            .as_object();
    return handler_->Create(actor, http::CommandFromRequest<CreateContract>(body), CommandMeta{});
  }

  SystemClock clock_;
  std::shared_ptr<Template> template_;
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::unique_ptr<ContractCommandHandler> handler_;
};

TEST_F(ContractTemplateScopeTest, AnotherOrganizationsTemplateIsNotFound) {
  auto refused = CreateAs(kGlobex);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateNotFound);
  EXPECT_EQ(store_->Size(), 0u);
  ASSERT_TRUE(CreateAs(kAcme));
}

TEST_F(ContractTemplateScopeTest, AnArchivedTemplateStartsNoContractButKeepsItsOwn) {
  auto created = CreateAs(kAcme);
  ASSERT_TRUE(created) << created.error().message;
  template_->archived = true;
  const uint64_t size = store_->Size();
  auto refused = CreateAs(kAcme);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kTemplateArchived);
  EXPECT_EQ(store_->Size(), size);

  auto sent = handler_->Execute(kAcme, created->state.id, SendContract{}, CommandMeta{});
  ASSERT_TRUE(sent) << sent.error().message;
  EXPECT_EQ(sent->state.status, ContractStatus::kSent);
}

}  // namespace
}  // namespace esign::commands
