#include "http/metrics.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string_view>

namespace esign::http {

namespace {

size_t SeriesHash(std::string_view method, std::string_view route, unsigned status) {
  const size_t hash = std::hash<std::string_view>{}(route);
  return hash ^ (std::hash<std::string_view>{}(method)*31 + status) * 0x9e3779b97f4a7c15ULL;
}

// A gauge's or counter's value: whole numbers in full (an ostream's default six digits would
// write 123456789 bytes as 1.23457e+08), fractions with nine significant digits.
std::string SampleValue(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9e15) {
    return std::to_string(static_cast<int64_t>(value));
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

}  // namespace

Metrics::Series* Metrics::Indexed(size_t hash, std::string_view method, std::string_view route,
                                  unsigned status) const {
  for (size_t probe = 0; probe < kIndexProbes; ++probe) {
    const IndexedSeries* entry =
        index_[(hash + probe) % kIndexSlots].load(std::memory_order_acquire);
    if (entry == nullptr) return nullptr;
    const auto& [m, r, s] = entry->key;
    if (s == status && m == method && r == route) return entry->series;
  }
  return nullptr;
}

void Metrics::AddToIndex(size_t hash, const Key& key, Series& series) {
  for (size_t probe = 0; probe < kIndexProbes; ++probe) {
    std::atomic<const IndexedSeries*>& slot = index_[(hash + probe) % kIndexSlots];
    if (slot.load(std::memory_order_relaxed) != nullptr) continue;
    indexed_.push_back(std::make_unique<IndexedSeries>(IndexedSeries{key, &series}));
    slot.store(indexed_.back().get(), std::memory_order_release);
    return;
  }
  // Every slot of its run is taken: this series stays reachable through the map alone.
}

Metrics::Series& Metrics::SeriesFor(std::string_view method, std::string_view route,
                                    unsigned status) {
  // Every request looks its series up; without a lock or a copy of the key once it is indexed.
  const size_t hash = SeriesHash(method, route, status);
  if (Series* series = Indexed(hash, method, route, status)) return *series;
  Key key(std::string(method), std::string(route), status);
  {
    std::shared_lock lock(mutex_);
    if (auto it = series_.find(key); it != series_.end()) return *it->second;
  }
  std::unique_lock lock(mutex_);
  auto& slot = series_[key];
  if (!slot) {
    slot = std::make_unique<Series>();
    AddToIndex(hash, key, *slot);
  }
  return *slot;
}

void Metrics::Observe(Series& series, std::chrono::nanoseconds duration) {
  const double seconds = std::chrono::duration<double>(duration).count();
  size_t bucket = 0;
  while (bucket < kBuckets.size() && seconds > kBuckets[bucket]) ++bucket;
  series.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  series.count.fetch_add(1, std::memory_order_relaxed);
  series.sum_ns.fetch_add(static_cast<uint64_t>(duration.count()), std::memory_order_relaxed);
}

void Metrics::RecordRequest(std::string_view method, std::string_view route, unsigned status,
                            std::chrono::nanoseconds latency) {
  Observe(SeriesFor(method, route, status), latency);
}

void Metrics::RecordDuration(const std::string& name, std::chrono::nanoseconds duration) {
  Series* series = nullptr;
  {
    std::unique_lock lock(mutex_);
    auto& slot = durations_[name];
    if (!slot) slot = std::make_unique<Series>();
    series = slot.get();
  }
  Observe(*series, duration);
}

void Metrics::AddGauge(std::string name, std::string help, std::function<double()> read) {
  std::unique_lock lock(mutex_);
  gauges_.push_back(Gauge{std::move(name), std::move(help), std::move(read)});
}

void Metrics::AddGauge(std::string name, std::string help, std::string labels,
                       std::function<double()> read) {
  std::unique_lock lock(mutex_);
  gauges_.push_back(
      Gauge{std::move(name), std::move(help), std::move(read), "gauge", std::move(labels)});
}

void Metrics::AddCounter(std::string name, std::string help, std::string labels,
                         std::function<double()> read) {
  std::unique_lock lock(mutex_);
  gauges_.push_back(
      Gauge{std::move(name), std::move(help), std::move(read), "counter", std::move(labels)});
}

void Metrics::RenderHistogram(std::ostream& out, const std::string& name, const std::string& labels,
                              const Series& series) {
  const std::string sep = labels.empty() ? "" : ",";
  uint64_t cumulative = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    cumulative += series.buckets[i].load();
    char le[32];
    std::snprintf(le, sizeof le, "%g", kBuckets[i]);
    out << name << "_bucket{" << labels << sep << "le=\"" << le << "\"} " << cumulative << "\n";
  }
  cumulative += series.buckets[kBuckets.size()].load();
  out << name << "_bucket{" << labels << sep << "le=\"+Inf\"} " << cumulative << "\n";
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  out << name << "_sum" << braces << " " << static_cast<double>(series.sum_ns.load()) / 1e9 << "\n";
  out << name << "_count" << braces << " " << series.count.load() << "\n";
}

std::string Metrics::Render() const {
  std::ostringstream out;
  std::shared_lock lock(mutex_);
  out << "# HELP contractd_http_requests_total HTTP requests by route and status.\n"
      << "# TYPE contractd_http_requests_total counter\n";
  for (const auto& [key, series] : series_) {
    const auto& [method, route, status] = key;
    out << "contractd_http_requests_total{method=\"" << method << "\",route=\"" << route
        << "\",status=\"" << status << "\"} " << series->count.load() << "\n";
  }
  out << "# HELP contractd_http_request_duration_seconds HTTP request latency.\n"
      << "# TYPE contractd_http_request_duration_seconds histogram\n";
  for (const auto& [key, series] : series_) {
    const auto& [method, route, status] = key;
    std::string labels = "method=\"";
    labels.append(method).append("\",route=\"").append(route).append("\",status=\"");
    labels.append(std::to_string(status)).append("\"");
    RenderHistogram(out, "contractd_http_request_duration_seconds", labels, *series);
  }
  for (const auto& [name, series] : durations_) {
    out << "# HELP " << name << " Duration in seconds.\n"
        << "# TYPE " << name << " histogram\n";
    RenderHistogram(out, name, "", *series);
  }
  const std::string* previous = nullptr;
  for (const auto& gauge : gauges_) {
    if (previous == nullptr || *previous != gauge.name) {
      out << "# HELP " << gauge.name << " " << gauge.help << "\n"
          << "# TYPE " << gauge.name << " " << gauge.type << "\n";
    }
    previous = &gauge.name;
    out << gauge.name << (gauge.labels.empty() ? "" : "{" + gauge.labels + "}") << " "
        << SampleValue(gauge.read()) << "\n";
  }
  return out.str();
}

}  // namespace esign::http
