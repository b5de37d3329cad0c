// The lanes on their pool of threads, with a fake directory and a fake attempt: per-endpoint
// order with more endpoints than threads, retries waiting for their time, an organization's share
// of the threads with idle ones lent beyond it, and lanes removed once idle or their endpoint
// deleted.
#include "delivery/delivery_lanes.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "tests/support/eventually.h"
#include "webhooks/delivery_message.h"

namespace esign::webhooks {
namespace {

using std::chrono::milliseconds;

using esign::testing::Eventually;

class DeliveryLanesTest : public ::testing::Test {
 protected:
  void Start(size_t threads) {
    lanes_ = std::make_unique<delivery::DeliveryLanes>(
        delivery::LaneDeps{
            .find = [this](std::string_view id) { return Find(id); },
            .attempt = [this](const std::stop_token&, const delivery::LaneDestination& endpoint,
                              delivery::Delivery& delivery) { return Attempt(endpoint, delivery); },
            .settle =
                [this](const std::string& id) {
                  std::lock_guard lock(mutex_);
                  settled_.push_back(id);
                },
            .clock = SystemClock::Instance()},
        threads);
  }
  void TearDown() override {
    Release();
    if (lanes_) lanes_->Stop();
  }

  void AddEndpoint(const std::string& id, const std::string& organization, bool slow = false) {
    std::lock_guard lock(mutex_);
    endpoints_[id] = delivery::LaneDestination{
        .id = id, .organization_id = organization, .enabled = true, .version = 1};
    if (slow) slow_.insert(id);
  }
  void ChangeEndpoint(const std::string& id, bool enabled) {
    {
      std::lock_guard lock(mutex_);
      endpoints_[id].enabled = enabled;
      ++endpoints_[id].version;
    }
    lanes_->Wake();
  }
  void DeleteEndpoint(const std::string& id) {
    {
      std::lock_guard lock(mutex_);
      endpoints_.erase(id);
    }
    lanes_->Wake();
  }
  // Lets every slow attempt, under way or to come, finish.
  void Release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    release_.notify_all();
  }
  // Lets one slow attempt of the organization finish.
  void ReleaseOne(const std::string& organization) {
    std::lock_guard lock(mutex_);
    ++releases_[organization];
    release_.notify_all();
  }
  int InFlight(const std::string& organization) {
    std::lock_guard lock(mutex_);
    return in_flight_of_organization_[organization];
  }

  static delivery::Delivery Make(const std::string& endpoint, uint64_t position) {
    const std::string event = "evt_" + std::to_string(position);
    return delivery::Delivery{.id = DeliveryId(endpoint, event),
                              .destination_id = endpoint,
                              .event_id = event,
                              .position = position,
                              .next_attempt_us = SystemClock::Instance().NowMicros()};
  }

  size_t Settled() {
    std::lock_guard lock(mutex_);
    return settled_.size();
  }
  std::vector<uint64_t> Sent(const std::string& endpoint) {
    std::lock_guard lock(mutex_);
    return sent_[endpoint];
  }

  std::optional<delivery::LaneDestination> Find(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = endpoints_.find(std::string(id));
    if (it == endpoints_.end()) return std::nullopt;
    return it->second;
  }

  // Succeeds, except each delivery in `fail_once_` fails its first attempt (retry `retry_after`
  // later); a slow endpoint's attempt waits for Release.
  delivery::LaneDeps::Attempted Attempt(const delivery::LaneDestination& endpoint,
                                        delivery::Delivery& delivery) {
    std::unique_lock lock(mutex_);
    EXPECT_EQ(++in_flight_[endpoint.id], 1) << "two attempts at once to " << endpoint.id;
    peak_of_organization_[endpoint.organization_id] =
        std::max(peak_of_organization_[endpoint.organization_id],
                 ++in_flight_of_organization_[endpoint.organization_id]);
    peak_ = std::max(peak_, ++in_flight_total_);
    sent_[endpoint.id].push_back(delivery.position);
    rounds_[delivery.id].push_back(delivery.round_start);
    if (slow_.contains(endpoint.id)) {
      int& releases = releases_[endpoint.organization_id];
      release_.wait(lock, [&] { return released_ || releases > 0; });
      if (!released_) --releases;
    }
    const int64_t now = SystemClock::Instance().NowMicros();
    delivery.attempts.push_back({.at_us = now});
    if (fail_once_.erase(delivery.id) > 0) {
      delivery.next_attempt_us = now + retry_after_.count() * 1000;
    } else {
      delivery.state = delivery::DeliveryState::kSucceeded;
    }
    --in_flight_[endpoint.id];
    --in_flight_of_organization_[endpoint.organization_id];
    --in_flight_total_;
    return delivery::LaneDeps::Attempted::kDone;
  }

  std::mutex mutex_;
  std::condition_variable release_;
  bool released_ = false;
  std::map<std::string, int> releases_;  // by organization: slow attempts let through one by one
  std::map<std::string, delivery::LaneDestination> endpoints_;
  std::set<std::string> slow_;
  std::set<std::string> fail_once_;
  milliseconds retry_after_{0};
  std::map<std::string, int> in_flight_;
  std::map<std::string, int> in_flight_of_organization_;
  std::map<std::string, int> peak_of_organization_;
  int in_flight_total_ = 0;
  int peak_ = 0;
  std::map<std::string, std::vector<uint64_t>> sent_;
  std::map<std::string, std::vector<size_t>> rounds_;  // by delivery: round_start of each attempt
  std::vector<std::string> settled_;
  std::unique_ptr<delivery::DeliveryLanes> lanes_;
};

TEST_F(DeliveryLanesTest, EachEndpointGetsItsDeliveriesInOrderWithMoreEndpointsThanThreads) {
  Start(4);
  constexpr int kEndpoints = 24;
  constexpr uint64_t kEach = 30;
  for (int e = 0; e < kEndpoints; ++e) {
    AddEndpoint("whe_" + std::to_string(e), "org_" + std::to_string(e % 3));
  }
  // One delivery fails first: its lane waits for the retry, and nothing overtakes it.
  fail_once_.insert(DeliveryId("whe_5", "evt_3"));
  retry_after_ = milliseconds(200);
  for (uint64_t p = 1; p <= kEach; ++p) {
    for (int e = 0; e < kEndpoints; ++e) lanes_->Push(Make("whe_" + std::to_string(e), p));
  }
  ASSERT_TRUE(Eventually([&] { return Settled() == kEndpoints * kEach; })) << Settled();
  std::vector<uint64_t> in_order(kEach);
  for (uint64_t p = 1; p <= kEach; ++p) in_order[p - 1] = p;
  for (int e = 0; e < kEndpoints; ++e) {
    if (e == 5) continue;
    EXPECT_EQ(Sent("whe_" + std::to_string(e)), in_order) << e;
  }
  std::vector<uint64_t> with_retry = in_order;
  with_retry.insert(with_retry.begin() + 3, 3);
  EXPECT_EQ(Sent("whe_5"), with_retry);
  EXPECT_LE(peak_, 4);
  EXPECT_EQ(lanes_->lanes(), 0u);  // every lane idle, so gone
}

TEST_F(DeliveryLanesTest, OneOrganizationsSlowEndpointsLeaveThreadsForOthers) {
  Start(8);
  ASSERT_EQ(lanes_->per_organization(), 2u);
  for (int e = 0; e < 8; ++e) AddEndpoint("whe_slow" + std::to_string(e), "org_busy", true);
  AddEndpoint("whe_other", "org_other");
  for (int e = 0; e < 8; ++e) {
    for (uint64_t p = 1; p <= 3; ++p) lanes_->Push(Make("whe_slow" + std::to_string(e), p));
  }
  // Alone, the busy organization is lent every thread but the reserve (a quarter).
  ASSERT_TRUE(Eventually([&] { return InFlight("org_busy") == 6; }));
  lanes_->Push(Make("whe_other", 1));
  // The other organization's delivery goes through on the reserve while the busy one's hang.
  ASSERT_TRUE(Eventually([&] { return Sent("whe_other").size() == 1; }));
  ASSERT_TRUE(Eventually([&] { return Settled() == 1; }));
  EXPECT_EQ(InFlight("org_busy"), 6);  // not all 8 threads
  Release();
  ASSERT_TRUE(Eventually([&] { return Settled() == 1 + 8 * 3; })) << Settled();
  std::lock_guard lock(mutex_);
  EXPECT_EQ(peak_of_organization_["org_busy"], 6);
}

TEST_F(DeliveryLanesTest, LentThreadsGoBackToAnOrganizationBelowItsShare) {
  Start(8);  // a share of 2, a reserve of 2
  for (int e = 0; e < 6; ++e) AddEndpoint("whe_busy" + std::to_string(e), "org_busy", true);
  for (int e = 0; e < 2; ++e) AddEndpoint("whe_b" + std::to_string(e), "org_b", true);
  for (int e = 0; e < 2; ++e) AddEndpoint("whe_c" + std::to_string(e), "org_c", true);
  for (int e = 0; e < 6; ++e) {
    for (uint64_t p = 1; p <= 3; ++p) lanes_->Push(Make("whe_busy" + std::to_string(e), p));
  }
  ASSERT_TRUE(Eventually([&] { return InFlight("org_busy") == 6; }));
  for (int e = 0; e < 2; ++e) lanes_->Push(Make("whe_b" + std::to_string(e), 1));
  for (int e = 0; e < 2; ++e) lanes_->Push(Make("whe_c" + std::to_string(e), 1));
  ASSERT_TRUE(Eventually([&] { return InFlight("org_b") == 2; }));  // the reserve
  EXPECT_EQ(InFlight("org_c"), 0);                                  // every thread is busy
  // Each thread the busy organization frees goes to org_c, below its share, though the busy
  // organization's lanes were ready first.
  ReleaseOne("org_busy");
  ASSERT_TRUE(Eventually([&] { return InFlight("org_c") == 1; }));
  EXPECT_EQ(InFlight("org_busy"), 5);
  ReleaseOne("org_busy");
  ASSERT_TRUE(Eventually([&] { return InFlight("org_c") == 2; }));
  EXPECT_EQ(InFlight("org_busy"), 4);
  // With no organization below its share waiting, a freed thread is lent again only outside the
  // reserve: 7 of 8 in flight leaves none to lend.
  ReleaseOne("org_busy");
  ASSERT_TRUE(Eventually([&] { return InFlight("org_busy") == 3; }));
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_EQ(InFlight("org_busy"), 3);
  Release();
  ASSERT_TRUE(Eventually([&] { return Settled() == 6 * 3 + 4; })) << Settled();
}

TEST_F(DeliveryLanesTest, ADisabledEndpointWaitsAndResumesAtOnceInANewRoundOnWake) {
  Start(2);
  AddEndpoint("whe_a", "org_a");
  fail_once_.insert(Make("whe_a", 1).id);
  retry_after_ = std::chrono::hours(1);
  lanes_->Push(Make("whe_a", 1));
  lanes_->Push(Make("whe_a", 2));
  ASSERT_TRUE(Eventually([&] { return Sent("whe_a").size() == 1; }));
  ChangeEndpoint("whe_a", /*enabled=*/false);
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_EQ(Sent("whe_a").size(), 1u);
  EXPECT_EQ(lanes_->lanes(), 1u);  // parked with its deliveries, on no thread
  // Enabled again: the retry due in an hour goes now, as the first of a new round.
  ChangeEndpoint("whe_a", /*enabled=*/true);
  ASSERT_TRUE(Eventually([&] { return Settled() == 2; }));
  EXPECT_EQ(Sent("whe_a"), (std::vector<uint64_t>{1, 1, 2}));
  EXPECT_TRUE(Eventually([&] { return lanes_->lanes() == 0; }));
  std::lock_guard lock(mutex_);
  EXPECT_EQ(rounds_[Make("whe_a", 1).id], (std::vector<size_t>{0, 1}));
}

TEST_F(DeliveryLanesTest, ADeletedEndpointsLaneSettlesItsDeliveriesAndIsRemoved) {
  Start(2);
  AddEndpoint("whe_a", "org_a");
  ChangeEndpoint("whe_a", /*enabled=*/false);
  for (uint64_t p = 1; p <= 3; ++p) lanes_->Push(Make("whe_a", p));
  EXPECT_TRUE(Eventually([&] { return lanes_->lanes() == 1; }));
  DeleteEndpoint("whe_a");
  ASSERT_TRUE(Eventually([&] { return Settled() == 3; }));
  EXPECT_TRUE(Sent("whe_a").empty());
  EXPECT_TRUE(Eventually([&] { return lanes_->lanes() == 0; }));
}

TEST_F(DeliveryLanesTest, DroppedDeliveriesAreNotSentAndAnEmptiedLaneIsRemoved) {
  Start(2);
  AddEndpoint("whe_a", "org_a");
  ChangeEndpoint("whe_a", /*enabled=*/false);
  lanes_->Push(Make("whe_a", 1));
  lanes_->Push(Make("whe_a", 2));
  lanes_->Drop({Make("whe_a", 1).id, Make("whe_a", 2).id});
  EXPECT_TRUE(Eventually([&] { return lanes_->lanes() == 0; }));
  ChangeEndpoint("whe_a", /*enabled=*/true);
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_TRUE(Sent("whe_a").empty());
  EXPECT_EQ(Settled(), 0u);  // another member's now
}

}  // namespace
}  // namespace esign::webhooks
