// ContractAsOf over a scripted contract: after each step the state it rebuilds at the log's last
// position equals the live rows of the views, later positions keep the last step's state, and the
// asOf parameter's syntax is checked without a store.
#include "projections/contract_as_of.h"

#include <gtest/gtest.h>

#include "base/time_text.h"
#include "contract_world.h"

namespace esign::projections {
namespace {

const QueryActor kReader{"cli_a1", "org_a"};

TEST(ParseLogPointTest, PositionsAndTimes) {
  auto position = ParseLogPoint("42");
  ASSERT_TRUE(position);
  EXPECT_EQ(std::get<GlobalPosition>(position->at), GlobalPosition(42));
  ASSERT_TRUE(ParseLogPoint("18446744073709551615"));
  auto time = ParseLogPoint("2026-11-20T11:00:00.5+01:00");
  ASSERT_TRUE(time);
  EXPECT_EQ(std::get<int64_t>(time->at), *ParseTimestampMicros("2026-11-20T10:00:00.500000Z"));
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1.0", "18446744073709551616", "2026-11-20",
                          "2026-11-20T10:00:00", "2026-11-31T10:00:00Z", "yesterday"}) {
    auto refused = ParseLogPoint(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().code, ErrorCode::kValidationFailed) << bad;
    ASSERT_FALSE(refused.error().details.empty()) << bad;
    EXPECT_EQ(refused.error().details[0].field, "asOf") << bad;
  }
}

TEST(ContractAsOfTest, EachStepRebuiltEqualsTheLiveRows) {
  testing::ContractWorld world;
  const ManualClock clock(*ParseTimestampMicros("2030-01-01T00:00:00Z"));
  const ContractStateCache states(world.store());
  const ContractAsOf as_of(world.store(), clock, states);
  const Actor a1 = testing::Client("cli_a1", "org_a");
  testing::ContractScript& script = world.script();
  const uint64_t before = world.store().Size();
  const std::string id =
      script.Create(a1, testing::ServicesBody("As of", testing::Parties{}), "2026-01-01T10:00:00Z");

  std::vector<std::pair<uint64_t, std::string>> steps;  // last position, contract row
  auto capture = [&] {
    world.Sync();
    auto row = world.queries().Get(kReader, id);
    ASSERT_TRUE(row);
    auto status = world.queries().Status(kReader, id);
    ASSERT_TRUE(status);
    const uint64_t last = world.store().Size() - 1;
    auto then = as_of.At(id, LogPoint{GlobalPosition(last)});
    ASSERT_TRUE(then) << then.error().message;
    EXPECT_EQ(then->position, GlobalPosition(last));
    EXPECT_EQ(boost::json::serialize(ContractToJson(then->state)), row->json);
    EXPECT_EQ(boost::json::serialize(ContractStatusToJson(then->state)), status->json);
    steps.emplace_back(last, row->json);
  };
  capture();
  ASSERT_TRUE(script.RunJson(a1, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  capture();
  ASSERT_TRUE(script.Run(
      a1, id,
      RecordSignerCompleted{script.ParticipantId(id, "Clara Client"), "2026-01-03T10:00:00Z", {}},
      "2026-01-03T10:00:00Z"));
  capture();
  // Another contract's event after the last step: the contract is as the last step left it.
  script.Create(a1, testing::ServicesBody("Other", testing::Parties{}), "2026-01-04T10:00:00Z");
  auto later = as_of.At(id, LogPoint{GlobalPosition(world.store().Size() - 1)});
  ASSERT_TRUE(later);
  EXPECT_EQ(later->position, GlobalPosition(steps.back().first));
  EXPECT_EQ(boost::json::serialize(ContractToJson(later->state)), steps.back().second);

  // Before the contract's first event, and an unknown contract: not found.
  ASSERT_GT(before, 0u);
  auto earlier = as_of.At(id, LogPoint{GlobalPosition(before - 1)});
  ASSERT_FALSE(earlier);
  EXPECT_EQ(earlier.error().code, ErrorCode::kContractNotFound);
  auto unknown = as_of.At("ctr_unknown", LogPoint{GlobalPosition(before)});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kContractNotFound);
  // Beyond the end of the log, and after the clock's now: refused.
  auto beyond = as_of.At(id, LogPoint{GlobalPosition(world.store().Size())});
  ASSERT_FALSE(beyond);
  EXPECT_EQ(beyond.error().code, ErrorCode::kValidationFailed);
  auto future = as_of.At(id, LogPoint{clock.NowMicros() + 1});
  ASSERT_FALSE(future);
  EXPECT_EQ(future.error().code, ErrorCode::kValidationFailed);
  ASSERT_TRUE(as_of.At(id, LogPoint{clock.NowMicros()}));
}

}  // namespace
}  // namespace esign::projections
