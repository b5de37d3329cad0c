// The controller of a contract, read from the store (eventstore/contract_controller.h) and
// remembered by the relay (webhooks/owning_organizations.h).
#include "webhooks/owning_organizations.h"

#include <gtest/gtest.h>

#include "eventstore/contract_controller.h"
#include "eventstore/memory_event_store.h"

namespace esign::webhooks {
namespace {

class OwningOrganizationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
  }

  eventstore::EventRecord Append(const std::string& stream, const std::string& type,
                                 const std::string& data) {
    auto appended = store_->Append(stream, eventstore::ExpectedVersion::Any(),
                                   {{"evt_" + std::to_string(next_id_++), type, 1, data, {}}});
    EXPECT_TRUE(appended);
    auto read = store_->ReadAll(GlobalPosition(store_->Size() - 1), 1);
    EXPECT_TRUE(read && read->size() == 1);
    return read->front();
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  int next_id_ = 0;
};

TEST_F(OwningOrganizationsTest, TheOrganizationOfContractCreatedControlsEveryEventOfTheContract) {
  const auto created =
      Append("contract-ctr_a", "contract.created", R"({"organizationId":"org_a","title":"t"})");
  const auto sent = Append("contract-ctr_a", "contract.sent", R"({"organizationId":"org_x"})");
  const auto session = Append("session-ses_1", "session.started", R"({"contractId":"ctr_a"})");
  const auto tmpl = Append("template-tpl_1", "template.imported", R"({"organizationId":"org_t"})");
  const auto orphan = Append("session-ses_2", "session.started", R"({"contractId":"ctr_none"})");

  EXPECT_EQ(eventstore::ReadContractController(*store_, "ctr_a").value(), "org_a");
  EXPECT_EQ(eventstore::ReadContractController(*store_, "ctr_none").value(), std::nullopt);

  OwningOrganizations controllers(*store_, 10);
  EXPECT_EQ(controllers.Of(created).value(), "org_a");
  EXPECT_EQ(controllers.Of(sent).value(), "org_a");
  EXPECT_EQ(controllers.Of(session).value(), "org_a");
  EXPECT_EQ(controllers.Of(tmpl).value(), std::nullopt);    // no contract
  EXPECT_EQ(controllers.Of(orphan).value(), std::nullopt);  // no such contract: not remembered
  EXPECT_EQ(controllers.cached(), 1u);
}

TEST_F(OwningOrganizationsTest, TheMapIsBoundedAndForgetsTheOldestFirst) {
  std::vector<eventstore::EventRecord> firsts;
  for (int i = 0; i < 5; ++i) {
    const std::string id = std::to_string(i);
    firsts.push_back(Append("contract-ctr_" + id, "contract.created",
                            R"({"organizationId":"org_)" + id + R"("})"));
  }
  OwningOrganizations controllers(*store_, 3);
  for (const auto& first : firsts) ASSERT_TRUE(controllers.Of(first));
  EXPECT_EQ(controllers.cached(), 3u);
  // A forgotten contract is read again from the store, with the same answer.
  const auto later = Append("contract-ctr_0", "contract.sent", "{}");
  EXPECT_EQ(controllers.Of(later).value(), "org_0");
  EXPECT_EQ(controllers.cached(), 3u);
}

}  // namespace
}  // namespace esign::webhooks
