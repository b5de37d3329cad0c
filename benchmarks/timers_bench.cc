// The cost of durable timers (Google Benchmark), on the real command handler, projector and
// contract views over the in-memory store, with 10,000 sent contracts in the due-timer index:
//   BM_PassWithNothingDue  one scheduler pass when the earliest timer is still ahead (what every
//                          wake-up costs: one ordered read of the index)
//   BM_ExpireDueContracts  firing expiries: per contract, the replay, the decision, the append
//                          (items/s = contracts expired per second)
//   BM_NextTimerDue        the pure due-time computation the views run after every event
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "base/time_text.h"
#include "commands/due_timers.h"
#include "domain/contract_timers.h"
#include "domain/id_generator.h"
#include "domain/template_importer.h"
#include "eventstore/memory_event_store.h"
#include "http/contract_requests.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"

namespace esign::commands {
namespace {

constexpr int64_t kStart = int64_t{1'772'323'200} * 1'000'000;  // 2026-03-01T00:00:00Z
constexpr int64_t kHour = int64_t{3600} * 1'000'000;
constexpr int kContracts = 10000;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A service's write and read sides, without HTTP, holding `count` sent contracts that expire
// one second apart from an hour on.
class World {
 public:
  explicit World(int count) {
    template_ = std::make_shared<const Template>(*ImportTemplateText(
        ReadText(std::string(ESIGN_EXAMPLE_TEMPLATES_DIR) + "/mutual-nda.json")));
    store_ = std::move(*eventstore::MemoryEventStore::Create());
    views_ = std::make_unique<projections::ContractViews>(*store_);
    projector_ = std::make_unique<projections::Projector>(
        *store_, view_store_, std::vector<projections::Projection*>{views_.get()});
    (void)projector_->Start();
    handler_ = std::make_unique<ContractCommandHandler>(
        *store_, [this](std::string_view) { return template_; },
        [](std::string_view, std::string_view, uint64_t) {}, RandomIdGenerator::Instance(), clock_);
    auto body =
        boost::json::parse(ReadText(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json"))
            .as_object();
    body["sendNow"] = true;
    body["notifications"] = {{"reminder", {{"enabled", false}}}};
    const esign::Actor sender{.client_id = "cli_bench",
                              .organization_id = "org_bench",
                              .permissions = {"contracts:create", "contracts:send"}};
    for (int i = 0; i < count; ++i) {
      body["signingSettings"] = {{"expiresAt", FormatTimestamp(kStart + kHour + i * 1'000'000)}};
      (void)handler_->Create(sender, http::CommandFromRequest<CreateContract>(body), {});
    }
    (void)projector_->WaitFor(store_->Size(), std::chrono::minutes(5));
    scheduler_ = std::make_unique<DueTimerScheduler>(*handler_, view_store_, clock_);
  }
  ~World() { projector_->Stop(); }

  ManualClock& clock() { return clock_; }
  DueTimerScheduler& scheduler() { return *scheduler_; }

 private:
  ManualClock clock_{kStart};
  std::shared_ptr<const Template> template_;
  std::unique_ptr<eventstore::MemoryEventStore> store_;
  projections::MemoryViewStore view_store_;
  std::unique_ptr<projections::ContractViews> views_;
  std::unique_ptr<projections::Projector> projector_;
  std::unique_ptr<ContractCommandHandler> handler_;
  std::unique_ptr<DueTimerScheduler> scheduler_;
};

void BM_PassWithNothingDue(benchmark::State& state) {
  World world(kContracts);
  for (auto _ : state) {
    auto pass = world.scheduler().RunDue();
    benchmark::DoNotOptimize(pass);
  }
}
BENCHMARK(BM_PassWithNothingDue)->Unit(benchmark::kMicrosecond);

void BM_ExpireDueContracts(benchmark::State& state) {
  size_t expired = 0;
  for (auto _ : state) {
    state.PauseTiming();
    World world(static_cast<int>(state.range(0)));
    world.clock().Advance(std::chrono::hours(48));
    state.ResumeTiming();
    auto pass = world.scheduler().RunDue();
    expired += pass ? pass->fired : 0;
  }
  state.SetItemsProcessed(static_cast<int64_t>(expired));
}
BENCHMARK(BM_ExpireDueContracts)->Arg(1000)->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_NextTimerDue(benchmark::State& state) {
  // A sent contract with four signers in turn and the default reminders.
  ContractState contract;
  contract.status = ContractStatus::kSent;
  contract.expires_at = FormatTimestamp(kStart + kHour);
  contract.sent_at = FormatTimestamp(kStart);
  contract.notification_snapshot = {
      {"reminder",
       {{"enabled", true}, {"firstAfterDays", 3}, {"intervalDays", 3}, {"maxCount", 3}}}};
  for (int i = 0; i < 4; ++i) {
    Participant p;
    p.participant_id = "prt_" + std::to_string(i);
    p.progress = ParticipantProgress::kReady;
    p.ready_since = contract.sent_at;
    contract.participants.push_back(p);
  }
  for (auto _ : state) benchmark::DoNotOptimize(NextTimerDueMicros(contract));
}
BENCHMARK(BM_NextTimerDue);

}  // namespace
}  // namespace esign::commands

BENCHMARK_MAIN();
