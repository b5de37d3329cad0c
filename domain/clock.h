// The time source, behind an interface so tests can fix or move time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace esign {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMicros() const = 0;  // since the Unix epoch, UTC
};

class SystemClock final : public Clock {
 public:
  int64_t NowMicros() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  static const SystemClock& Instance() {
    static const SystemClock clock;
    return clock;
  }
};

// The system clock moved ahead by an offset that can grow while it runs: how an operator (or an
// end-to-end test) rehearses days of a contract's life in seconds (contractd --clock-offset and
// the admin socket's clock.advance). Safe from any thread.
class OffsetClock final : public Clock {
 public:
  explicit OffsetClock(std::chrono::microseconds offset = {}) : offset_us_(offset.count()) {}
  int64_t NowMicros() const override {
    return SystemClock::Instance().NowMicros() + offset_us_.load(std::memory_order_relaxed);
  }
  void Advance(std::chrono::microseconds by) { offset_us_ += by.count(); }
  std::chrono::microseconds offset() const { return std::chrono::microseconds(offset_us_.load()); }

 private:
  std::atomic<int64_t> offset_us_;
};

// A clock that stands still until told to move. Safe from any thread.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t now_us) : now_us_(now_us) {}
  int64_t NowMicros() const override { return now_us_.load(); }
  void Advance(std::chrono::microseconds by) { now_us_ += by.count(); }
  void Set(int64_t now_us) { now_us_ = now_us; }

 private:
  std::atomic<int64_t> now_us_;
};

}  // namespace esign
