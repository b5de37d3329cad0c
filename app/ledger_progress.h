// The progress line of contract-ledger's long runs (verify, replay, export, prove), on stderr and
// only when stderr is a terminal: scripts, pipes and log files get clean output.
//
//   verify: 412,000 / 1,000,000 events (41%) 520k events/s
//
// One line, rewritten in place ("\r" then the line, then "\x1b[K" to clear what a longer earlier
// line left), at most ten times a second, and erased when the run ends, so the findings printed
// afterwards start on a clean line. Runs of fewer than kLedgerProgressMinEvents events show none.
// ProgressLog counts the events a command reads through the EventStore interface, so the
// eventstore and projections code needs no hook.
// Thread safety: a LedgerProgress and its ProgressLog belong to one thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "eventstore/event_store.h"

namespace esign::app {

inline constexpr uint64_t kLedgerProgressMinEvents = 10'000;

class LedgerProgress {
 public:
  // Shown when stderr is a terminal and total >= kLedgerProgressMinEvents.
  LedgerProgress(std::ostream& err, std::string_view what, uint64_t total);
  ~LedgerProgress();  // erases the line
  LedgerProgress(const LedgerProgress&) = delete;
  LedgerProgress& operator=(const LedgerProgress&) = delete;

  void Add(uint64_t events);

  // "verify: 412,000 / 1,000,000 events (41%) 520k events/s"; no rate while per_second < 0.
  static std::string Line(std::string_view what, uint64_t done, uint64_t total, double per_second);

 private:
  void MaybeDraw();

  std::ostream& err_;
  std::string what_;
  uint64_t total_;
  bool shown_;
  uint64_t done_ = 0;
  uint64_t next_check_ = 0;  // the clock is read only every few thousand events
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// An EventStore that forwards everything to `inner` and counts the events read into `progress`.
class ProgressLog final : public eventstore::EventStore {
 public:
  ProgressLog(eventstore::EventStore& inner, LedgerProgress& progress)
      : inner_(inner), progress_(progress) {}

  Result<eventstore::AppendResult> Append(std::string_view stream_id,
                                          eventstore::ExpectedVersion expected,
                                          std::vector<eventstore::NewEvent> events) override {
    return inner_.Append(stream_id, expected, std::move(events));
  }
  Result<std::vector<eventstore::EventRecord>> ReadStream(std::string_view stream_id,
                                                          StreamVersion from,
                                                          size_t max_count) const override;
  Result<StreamVersion> CurrentVersion(std::string_view stream_id) const override {
    return inner_.CurrentVersion(stream_id);
  }
  Result<std::vector<eventstore::EventRecord>> ReadAll(GlobalPosition from,
                                                       size_t max_count) const override;
  Result<std::string> ReadRaw(GlobalPosition position) const override;
  uint64_t Size() const override { return inner_.Size(); }
  uint64_t WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                            std::stop_token stop) const override {
    return inner_.WaitForSizeAbove(size, timeout, std::move(stop));
  }
  eventstore::Ledger& ledger() override { return inner_.ledger(); }
  eventstore::BlobStore& blobs() override { return inner_.blobs(); }
  void Close() override { inner_.Close(); }

 private:
  eventstore::EventStore& inner_;
  LedgerProgress& progress_;
};

}  // namespace esign::app
