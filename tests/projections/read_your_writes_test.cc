#include "projections/read_your_writes.h"

#include <gtest/gtest.h>

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

TEST(ReadYourWritesTest, AClientWaitsOnlyForItsOwnWrites) {
  auto store = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(store);
  MemoryViewStore views;
  CountingProjection projection;
  Projector projector(**store, views, {&projection});
  ReadYourWrites rw(projector, std::chrono::seconds(5));

  EXPECT_TRUE(rw.CaughtUp("cli_never_wrote"));
  auto appended = (*store)->Append("s", eventstore::ExpectedVersion::Any(), {AnEvent()});
  ASSERT_TRUE(appended);
  rw.Wrote("cli_a", appended->first_position.value() + appended->count);
  EXPECT_FALSE(rw.CaughtUp("cli_a"));  // the projector has not started yet
  EXPECT_TRUE(rw.CaughtUp("cli_b"));

  ASSERT_TRUE(projector.Start());
  EXPECT_TRUE(rw.AwaitOwnWrites("cli_a"));
  EXPECT_TRUE(rw.CaughtUp("cli_a"));
  projector.Stop();
}

TEST(ReadYourWritesTest, TimesOutWhenTheReadSideIsStuck) {
  auto store = eventstore::MemoryEventStore::Create();
  ASSERT_TRUE(store);
  MemoryViewStore views;
  CountingProjection projection;
  Projector projector(**store, views, {&projection});  // never started
  ReadYourWrites rw(projector, std::chrono::milliseconds(20));
  rw.Wrote("cli_a", 1);
  auto waited = rw.AwaitOwnWrites("cli_a");
  ASSERT_FALSE(waited);
  EXPECT_EQ(waited.error().code, ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace esign::projections
