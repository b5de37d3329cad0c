// Prometheus metrics of the service, rendered as the text exposition format on GET /metrics:
// request counts and latency histograms by route and status, plus gauges that other parts
// register as callbacks (append latency, projection lag, ...).
// Thread safety: every method may be called from any thread.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <shared_mutex>
#include <string>
#include <tuple>
#include <vector>

namespace esign::http {

class Metrics {
 public:
  // Upper bounds of the latency buckets, in seconds.
  static constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                      0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

  void RecordRequest(std::string_view method, std::string_view route, unsigned status,
                     std::chrono::nanoseconds latency);

  // A histogram of durations outside HTTP, e.g. "contractd_append_duration_seconds".
  void RecordDuration(const std::string& name, std::chrono::nanoseconds duration);

  // A gauge read when /metrics is rendered, e.g. "contractd_projection_lag_events".
  void AddGauge(std::string name, std::string help, std::function<double()> read);
  // The same with fixed `labels` such as channel="mail", one series per call (the calls of one
  // name follow each other, with one help). Labels name a bounded set, never an organization or
  // an endpoint.
  void AddGauge(std::string name, std::string help, std::string labels,
                std::function<double()> read);
  // A counter read the same way, one series per call: `labels` is fixed text such as
  // reason="recipient_hourly_limit" (the calls of one name follow each other, with one help).
  void AddCounter(std::string name, std::string help, std::string labels,
                  std::function<double()> read);

  std::string Render() const;

 private:
  struct Series {
    std::array<std::atomic<uint64_t>, kBuckets.size() + 1> buckets{};  // last: +Inf
    std::atomic<uint64_t> count{0};
    std::atomic<uint64_t> sum_ns{0};
  };
  struct Gauge {
    std::string name, help;
    std::function<double()> read;
    std::string type = "gauge";
    std::string labels;
  };
  using Key = std::tuple<std::string, std::string, unsigned>;  // method, route, status
  // A request series as the lock-free index holds it: written once, then only read.
  struct IndexedSeries {
    Key key;
    Series* series;
  };
  // Slots of the lock-free index (a power of two), well above the series a service has (its
  // routes and methods times the statuses each answers); past that, look-ups take the lock.
  static constexpr size_t kIndexSlots = 1024;
  static constexpr size_t kIndexProbes = 8;

  Series& SeriesFor(std::string_view method, std::string_view route, unsigned status);
  Series* Indexed(size_t hash, std::string_view method, std::string_view route,
                  unsigned status) const;
  void AddToIndex(size_t hash, const Key& key, Series& series);  // under the unique lock
  static void Observe(Series& series, std::chrono::nanoseconds duration);
  static void RenderHistogram(std::ostream& out, const std::string& name, const std::string& labels,
                              const Series& series);

  mutable std::shared_mutex mutex_;
  std::map<Key, std::unique_ptr<Series>> series_;  // guarded by mutex_ (the map, not the values)
  std::vector<Gauge> gauges_;                      // guarded by mutex_
  std::map<std::string, std::unique_ptr<Series>> durations_;  // guarded by mutex_ (the map)
  // Every request looks its series up: an open-addressing table of entries that are never
  // changed or removed once published, read without the lock and filled under it.
  std::array<std::atomic<const IndexedSeries*>, kIndexSlots> index_{};
  std::vector<std::unique_ptr<IndexedSeries>> indexed_;  // guarded by mutex_; owns index_'s
};

}  // namespace esign::http
