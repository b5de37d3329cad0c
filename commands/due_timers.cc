#include "commands/due_timers.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "base/json_read.h"
#include "base/sha256.h"
#include "base/thread_name.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "projections/due_timer_index.h"

namespace esign::commands {
namespace {

// Contracts fired per scan; the next scan goes on where this one stopped.
constexpr size_t kContractsPerScan = 256;
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

std::optional<int64_t> Earliest(std::optional<int64_t> a, std::optional<int64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

}  // namespace

std::string DueTimerEventId(std::string_view contract_id, const DomainEvent& event) {
  std::string timer;
  event_codec::Visit<boost::mp11::mp_list<ContractExpiredData, ParticipantRemindedData>>(
      event.type, event.data,
      event_codec::Overloaded{
          [&](const ContractExpiredData& expired) { timer = "expiry\n" + expired.expires_at; },
          [&](const ParticipantRemindedData& reminded) {
            timer = "reminder\n" + reminded.participant_id + '\n' + reminded.due_at.value_or("");
          }});
  return "evt_" + Sha256Hex(std::string(contract_id) + '\n' + timer).substr(0, 32);
}

DueTimerScheduler::DueTimerScheduler(ContractCommandHandler& handler,
                                     const projections::ViewStore& views, const Clock& clock,
                                     DueTimerOptions options)
    : handler_(handler), views_(views), clock_(clock), options_(std::move(options)) {}

DueTimerScheduler::~DueTimerScheduler() { Stop(); }

void DueTimerScheduler::Start() {
  if (thread_.joinable()) return;
  thread_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-timers");
    Run(stop);
  });
}

void DueTimerScheduler::Stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  Wake();
  thread_.join();
  thread_ = std::jthread();
}

void DueTimerScheduler::Wake() {
  {
    const std::lock_guard lock(wake_mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

Result<bool> DueTimerScheduler::Fire(const std::string& contract_id) {
  const esign::Actor system{.client_id = "system", .organization_id = "", .permissions = {}};
  CommandMeta meta;
  meta.actor = eventstore::Actor{.client_id = "system"};
  auto outcome = handler_.Execute(system, contract_id, RunDueTimers{}, meta);
  if (!outcome) return std::unexpected(outcome.error());
  return outcome->appended;
}

Result<DueTimerScheduler::Pass> DueTimerScheduler::RunDue() {
  const std::lock_guard run_lock(run_mutex_);
  Pass pass;
  for (;;) {
    const int64_t now = clock_.NowMicros();
    std::vector<std::pair<std::string, int64_t>> due;
    std::unordered_map<std::string, Handled> still_handled;
    auto scanned =
        projections::ScanDueTimers(views_, [&](int64_t due_micros, std::string_view contract_id) {
          if (due_micros > now) {
            pass.next_due_micros = Earliest(pass.next_due_micros, due_micros);
            return false;
          }
          const std::string id(contract_id);
          if (auto it = handled_.find(id);
              it != handled_.end() && it->second.due_micros == due_micros) {
            still_handled.insert(*it);
            if (it->second.retry_at_micros > now) {
              if (it->second.retry_at_micros != kNever) {
                pass.next_due_micros = Earliest(pass.next_due_micros, it->second.retry_at_micros);
              }
              return true;
            }
          }
          due.emplace_back(id, due_micros);
          return due.size() < kContractsPerScan;
        });
    if (!scanned) return std::unexpected(scanned.error());
    // Rows that moved or went away need no memory of having been fired.
    handled_ = std::move(still_handled);
    if (due.empty()) return pass;
    for (const auto& [contract_id, due_micros] : due) {
      auto fired = Fire(contract_id);
      if (fired && *fired) ++pass.fired;
      if (!fired && options_.log) {
        options_.log("timers: contract " + contract_id + ": " + fired.error().message);
      }
      const int64_t retry =
          fired ? kNever : clock_.NowMicros() + options_.retry_after.count() * 1000;
      handled_[contract_id] = Handled{due_micros, retry};
      if (!fired) pass.next_due_micros = Earliest(pass.next_due_micros, retry);
    }
  }
}

void DueTimerScheduler::Run(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    auto pass = RunDue();
    if (!pass && options_.log) options_.log("timers: " + pass.error().message);
    auto sleep = std::chrono::duration_cast<std::chrono::microseconds>(options_.max_sleep);
    if (!pass) sleep = std::min(sleep, std::chrono::microseconds(options_.retry_after));
    if (pass && pass->next_due_micros) {
      const auto until = std::chrono::microseconds(*pass->next_due_micros - clock_.NowMicros());
      sleep = std::clamp(until, std::chrono::microseconds(0), sleep);
    }
    std::unique_lock lock(wake_mutex_);
    wake_.wait_for(lock, stop, sleep, [this] { return woken_; });
    woken_ = false;
  }
}

}  // namespace esign::commands
