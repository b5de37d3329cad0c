#include "projections/read_your_writes.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "domain/id_generator.h"
#include "eventstore/memory_event_store.h"
#include "projections/memory_view_store.h"

namespace esign::projections {
namespace {

class CountingProjection final : public Projection {
 public:
  std::string_view Name() const override { return "count"; }
  Status Apply(const eventstore::EventRecord&, ViewBatch&) override { return {}; }
};

eventstore::NewEvent AnEvent() {
  eventstore::NewEvent event;
  event.event_id = RandomIdGenerator::Instance().Next("evt_");
  event.type = "thing.happened";
  event.data = "{}";
  return event;
}

// A log, a projector over it that each test starts when it likes, and what a write appended.
class ReadYourWritesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    projector_ = std::make_unique<Projector>(*store_, views_, std::vector<Projection*>{&counting_});
  }
  void TearDown() override { projector_->Stop(); }

  // Appends one event; the log's size after it.
  uint64_t AppendOne() {
    auto appended = store_->Append("s", eventstore::ExpectedVersion::Any(), {AnEvent()});
    EXPECT_TRUE(appended);
    return appended ? appended->first_position.value() + appended->count : 0;
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
  CountingProjection counting_;
  std::unique_ptr<Projector> projector_;
};

TEST_F(ReadYourWritesTest, AClientWaitsOnlyForItsOwnWrites) {
  ReadYourWrites rw(*projector_, std::chrono::seconds(5));
  EXPECT_TRUE(rw.CaughtUp("cli_never_wrote", "org_a"));
  rw.Wrote("cli_a", "org_a", AppendOne());
  EXPECT_FALSE(rw.CaughtUp("cli_a", "org_a"));  // the projector has not started yet
  EXPECT_TRUE(rw.CaughtUp("cli_b", "org_a"));

  ASSERT_TRUE(projector_->Start());
  EXPECT_TRUE(rw.AwaitOwnWrites("cli_a", "org_a"));
  EXPECT_TRUE(rw.CaughtUp("cli_a", "org_a"));
}

// A signer's decline, say: the integrator that reads the contract next, whichever of its
// organization's clients, sees it. Another organization's clients wait for nothing.
TEST_F(ReadYourWritesTest, AWriteWithoutAClientIsWaitedForByEveryClientOfItsOrganization) {
  ReadYourWrites rw(*projector_, std::chrono::seconds(5));
  rw.Wrote("", "org_a", AppendOne());
  EXPECT_FALSE(rw.CaughtUp("cli_a1", "org_a"));
  EXPECT_FALSE(rw.CaughtUp("cli_a2", "org_a"));
  EXPECT_TRUE(rw.CaughtUp("cli_b", "org_b"));
  // A client named as the organization is not the organization.
  EXPECT_TRUE(rw.CaughtUp("org_a", "org_b"));

  ASSERT_TRUE(projector_->Start());
  EXPECT_TRUE(rw.AwaitOwnWrites("cli_a2", "org_a"));
  EXPECT_TRUE(rw.CaughtUp("cli_a1", "org_a"));
}

TEST_F(ReadYourWritesTest, TimesOutWhenTheReadSideIsStuck) {
  ReadYourWrites rw(*projector_, std::chrono::milliseconds(20));  // the projector never starts
  rw.Wrote("cli_a", "org_a", 1);
  auto waited = rw.AwaitOwnWrites("cli_a", "org_a");
  ASSERT_FALSE(waited);
  EXPECT_EQ(waited.error().code, ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace esign::projections
