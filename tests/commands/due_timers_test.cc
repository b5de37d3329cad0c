// The due-timer scheduler over the real command handler, projector and contract views (on the
// in-memory store), with a clock the test moves: a timer fires once when its time comes, never
// on a contract that has moved on, once even with two schedulers, and after a stop at start.
#include "commands/due_timers.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "base/time_text.h"
#include "domain/id_generator.h"
#include "domain/template_importer.h"
#include "eventstore/domain_events.h"
#include "eventstore/memory_event_store.h"
#include "http/contract_requests.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "tests/support/eventually.h"

namespace esign::commands {
namespace {

using std::chrono::hours;

constexpr int64_t kStart = int64_t{1'772'323'200} * 1'000'000;  // 2026-03-01T00:00:00Z
constexpr auto kDay = hours(24);

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const esign::Actor kSender{.client_id = "cli_sender",
                           .organization_id = "org_acme",
                           .permissions = {"contracts:create", "contracts:send"}};

class DueTimersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tmpl =
        ImportTemplateText(ReadText(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json"));
    ASSERT_TRUE(tmpl) << tmpl.error().message;
    template_ = std::make_shared<const Template>(std::move(*tmpl));
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    views_ = std::make_unique<projections::ContractViews>(
        *store_, projections::ContractViewsOptions{.due_timers_changed = [this] {
          if (scheduler_) scheduler_->Wake();
        }});
    projector_ = std::make_unique<projections::Projector>(
        *store_, view_store_, std::vector<projections::Projection*>{views_.get()});
    ASSERT_TRUE(projector_->Start());
    handler_ = std::make_unique<ContractCommandHandler>(
        *store_, [this](std::string_view) { return template_; },
        [this](std::string_view client_id, std::string_view organization_id, uint64_t) {
          writes_.emplace_back(client_id, organization_id);
        },
        RandomIdGenerator::Instance(), clock_);
  }

  void TearDown() override {
    if (scheduler_) scheduler_->Stop();
    projector_->Stop();
  }

  std::unique_ptr<DueTimerScheduler> NewScheduler() {
    return std::make_unique<DueTimerScheduler>(*handler_, view_store_, clock_);
  }

  // A sent mutual NDA with these signing settings and reminder settings.
  std::string Send(boost::json::object signing_settings, boost::json::object reminder) {
    auto body =
        boost::json::parse(ReadText(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json"))
            .as_object();
    body["sendNow"] = true;
    body["signingSettings"] = std::move(signing_settings);
    body["notifications"] = boost::json::object{{"reminder", std::move(reminder)}};
    auto created =
        handler_->Create(kSender, http::CommandFromRequest<CreateContract>(body), CommandMeta{});
    EXPECT_TRUE(created) << created.error().message;
    Sync();
    return created ? created->state.id : "";
  }

  void Sync() { ASSERT_TRUE(projector_->WaitFor(store_->Size(), testing::kWaitLimit)); }

  size_t Count(std::string_view type) {
    auto events = store_->ReadAll(GlobalPosition(0), 100000);
    EXPECT_TRUE(events);
    size_t count = 0;
    for (const auto& e : *events) count += e.type == type ? 1 : 0;
    return count;
  }

  std::string InAnHour() const { return FormatTimestamp(clock_.NowMicros() + 3'600'000'000); }

  ManualClock clock_{kStart};
  std::shared_ptr<const Template> template_;
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  projections::MemoryViewStore view_store_;
  std::unique_ptr<projections::ContractViews> views_;
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<ContractCommandHandler> handler_;
  std::unique_ptr<DueTimerScheduler> scheduler_;
  // Who each append was recorded for (read-your-writes): the client, the organization.
  std::vector<std::pair<std::string, std::string>> writes_;
};

const boost::json::object kNoReminders{{"enabled", false}};

TEST_F(DueTimersTest, TheContractExpiresOnceWhenItsTimeComes) {
  const std::string id = Send({{"expiresAt", InAnHour()}}, kNoReminders);
  auto scheduler = NewScheduler();

  auto early = scheduler->RunDue();
  ASSERT_TRUE(early);
  EXPECT_EQ(early->fired, 0u);
  ASSERT_TRUE(early->next_due_micros);
  EXPECT_EQ(*early->next_due_micros, kStart + 3'600'000'000);

  clock_.Advance(hours(1));
  auto due = scheduler->RunDue();
  ASSERT_TRUE(due);
  EXPECT_EQ(due->fired, 1u);
  // Before and after the views catch up, nothing fires again.
  EXPECT_EQ(scheduler->RunDue()->fired, 0u);
  Sync();
  auto after = scheduler->RunDue();
  EXPECT_EQ(after->fired, 0u);
  EXPECT_FALSE(after->next_due_micros);

  EXPECT_EQ(Count("contract.expired"), 1u);
  auto state = handler_->Load(id);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->status, ContractStatus::kExpired);
  // The event's id is the timer's: (contract, expiry, due time).
  auto records = store_->ReadAll(GlobalPosition(0), 100000);
  const auto& last = records->back();
  auto event = eventstore::ToDomainEvent(last);
  ASSERT_TRUE(event);
  EXPECT_EQ(last.event_id, DueTimerEventId(id, *event));
  // The sender's write is the sender's to read; the expiry, the service's, is for every client of
  // the contract's organization.
  ASSERT_FALSE(writes_.empty());
  EXPECT_EQ(writes_.front().first, "cli_sender");
  EXPECT_EQ(writes_.front().second, "org_acme");
  EXPECT_EQ(writes_.back().first, "");
  EXPECT_EQ(writes_.back().second, "org_acme");
}

TEST_F(DueTimersTest, AVoidedContractNeitherExpiresNorReminds) {
  const std::string id = Send({{"expiresAt", InAnHour()}}, {});
  auto voided = handler_->Execute(kSender, id, VoidContract{.reason = "sent by mistake"}, {});
  ASSERT_TRUE(voided) << voided.error().message;
  Sync();
  clock_.Advance(kDay * 10);
  auto scheduler = NewScheduler();
  auto pass = scheduler->RunDue();
  ASSERT_TRUE(pass);
  EXPECT_EQ(pass->fired, 0u);
  EXPECT_FALSE(pass->next_due_micros);  // its timers left the index with the void
  EXPECT_EQ(Count("contract.expired"), 0u);
  EXPECT_EQ(Count("participant.reminded"), 0u);
}

TEST_F(DueTimersTest, RemindersFollowTheScheduleUpToMaxCount) {
  Send({{"expiresInDays", 30}},
       {{"firstAfterDays", 2}, {"intervalDays", 1}, {"maxCount", 2}, {"enabled", true}});
  auto scheduler = NewScheduler();
  const auto run_at = [&](std::chrono::hours at) {
    clock_.Set(kStart + std::chrono::microseconds(at).count());
    auto pass = scheduler->RunDue();
    EXPECT_TRUE(pass);
    Sync();
    return Count("participant.reminded");
  };
  // Both signers of the NDA sign in parallel: each is reminded.
  EXPECT_EQ(run_at(kDay * 2 - hours(1)), 0u);
  EXPECT_EQ(run_at(kDay * 2), 2u);
  EXPECT_EQ(run_at(kDay * 2 + hours(23)), 2u);
  EXPECT_EQ(run_at(kDay * 3), 4u);
  EXPECT_EQ(run_at(kDay * 20), 4u);  // maxCount reached
  EXPECT_EQ(run_at(kDay * 31), 4u);  // and then it expired
  EXPECT_EQ(Count("contract.expired"), 1u);
}

TEST_F(DueTimersTest, TwoSchedulersFireEachTimerOnce) {
  for (int i = 0; i < 5; ++i) Send({{"expiresAt", InAnHour()}}, {});
  auto first = NewScheduler();
  auto second = NewScheduler();
  clock_.Advance(hours(2));
  std::thread a([&] { EXPECT_TRUE(first->RunDue()); });
  std::thread b([&] { EXPECT_TRUE(second->RunDue()); });
  a.join();
  b.join();
  Sync();
  EXPECT_TRUE(first->RunDue());
  EXPECT_TRUE(second->RunDue());
  EXPECT_EQ(Count("contract.expired"), 5u);
}

TEST_F(DueTimersTest, TheThreadFiresWhatFellDueWhileItWasStoppedAndWakesForNewTimers) {
  Send({{"expiresAt", InAnHour()}}, kNoReminders);
  clock_.Advance(hours(2));
  scheduler_ = NewScheduler();
  scheduler_->Start();
  EXPECT_TRUE(testing::Eventually([&] { return Count("contract.expired") == 1; }));

  // A contract sent while the thread sleeps wakes it (the views tell it of the nearer time);
  // then the clock moves and the thread is told.
  Send({{"expiresAt", InAnHour()}}, kNoReminders);
  clock_.Advance(hours(1));
  scheduler_->Wake();
  EXPECT_TRUE(testing::Eventually([&] { return Count("contract.expired") == 2; }));
}

}  // namespace
}  // namespace esign::commands
