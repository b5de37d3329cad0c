#include "app/ledger_progress.h"

#include <unistd.h>

#include <cstdio>

namespace esign::app {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr uint64_t kEventsBetweenClockReads = 4096;

// 1234567 -> "1,234,567"
std::string Grouped(uint64_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<size_t>(at), ",");
  }
  return digits;
}

// 520123.4 -> "520k", 1834000 -> "1.83M"
std::string Rate(double per_second) {
  char text[32];
  if (per_second >= 1e6) {
    std::snprintf(text, sizeof text, "%.2fM", per_second / 1e6);
  } else if (per_second >= 1e4) {
    std::snprintf(text, sizeof text, "%.0fk", per_second / 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.0f", per_second);
  }
  return text;
}

}  // namespace

LedgerProgress::LedgerProgress(std::ostream& err, std::string_view what, uint64_t total)
    : err_(err),
      what_(what),
      total_(total),
      shown_(total >= kLedgerProgressMinEvents && isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

LedgerProgress::~LedgerProgress() {
  if (drawn_) err_ << "\r\x1b[K" << std::flush;
}

void LedgerProgress::Add(uint64_t events) {
  done_ += events;
  if (shown_ && done_ >= next_check_) MaybeDraw();
}

void LedgerProgress::MaybeDraw() {
  next_check_ = done_ + kEventsBetweenClockReads;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  // A rate over less than a redraw interval says little; it appears from the second line on.
  const double rate = seconds >= 0.05 ? static_cast<double>(done_) / seconds : -1;
  err_ << "\r" << Line(what_, done_, total_, rate) << "\x1b[K" << std::flush;
  drawn_ = true;
  last_draw_ = now;
}

std::string LedgerProgress::Line(std::string_view what, uint64_t done, uint64_t total,
                                 double per_second) {
  const uint64_t shown = done < total ? done : total;
  std::string line = std::string(what) + ": " + Grouped(shown) + " / " + Grouped(total) +
                     " events (" + std::to_string(total > 0 ? shown * 100 / total : 100) + "%)";
  if (per_second >= 0) line += " " + Rate(per_second) + " events/s";
  return line;
}

Result<std::vector<eventstore::EventRecord>> ProgressLog::ReadStream(std::string_view stream_id,
                                                                     StreamVersion from,
                                                                     size_t max_count) const {
  auto events = inner_.ReadStream(stream_id, from, max_count);
  if (events) progress_.Add(events->size());
  return events;
}

Result<std::vector<eventstore::EventRecord>> ProgressLog::ReadAll(GlobalPosition from,
                                                                  size_t max_count) const {
  auto events = inner_.ReadAll(from, max_count);
  if (events) progress_.Add(events->size());
  return events;
}

Result<std::string> ProgressLog::ReadRaw(GlobalPosition position) const {
  auto raw = inner_.ReadRaw(position);
  progress_.Add(1);
  return raw;
}

}  // namespace esign::app
