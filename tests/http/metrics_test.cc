// Request series: every (method, route, status) counted in its own series, whether its look-up
// goes through the lock-free index or, once the index is crowded, through the map alone.
#include "http/metrics.h"

#include <gtest/gtest.h>

#include <string>

namespace esign::http {
namespace {

std::string CountLine(const std::string& method, const std::string& route, unsigned status,
                      int count) {
  return "contractd_http_requests_total{method=\"" + method + "\",route=\"" + route +
         "\",status=\"" + std::to_string(status) + "\"} " + std::to_string(count) + "\n";
}

TEST(MetricsTest, CountsEachRequestSeriesApart) {
  Metrics metrics;
  for (int i = 0; i < 3; ++i) metrics.RecordRequest("GET", "getContractStatus", 200, {});
  metrics.RecordRequest("HEAD", "getContractStatus", 200, {});
  metrics.RecordRequest("GET", "getContractStatus", 404, {});
  metrics.RecordRequest("GET", "getContract", 200, {});
  const std::string text = metrics.Render();
  EXPECT_NE(text.find(CountLine("GET", "getContractStatus", 200, 3)), std::string::npos) << text;
  EXPECT_NE(text.find(CountLine("HEAD", "getContractStatus", 200, 1)), std::string::npos);
  EXPECT_NE(text.find(CountLine("GET", "getContractStatus", 404, 1)), std::string::npos);
  EXPECT_NE(text.find(CountLine("GET", "getContract", 200, 1)), std::string::npos);
}

// More series than the index has slots: each still gets exactly its own requests.
TEST(MetricsTest, SeriesBeyondTheIndexAreCountedToo) {
  Metrics metrics;
  constexpr int kRoutes = 3000;
  for (int round = 1; round <= 2; ++round) {
    for (int i = 0; i < kRoutes; ++i) {
      for (int n = 0; n < (i % 3) + 1; ++n) {
        metrics.RecordRequest("GET", "route" + std::to_string(i), 200, {});
      }
    }
  }
  const std::string text = metrics.Render();
  for (int i = 0; i < kRoutes; ++i) {
    ASSERT_NE(text.find(CountLine("GET", "route" + std::to_string(i), 200, 2 * ((i % 3) + 1))),
              std::string::npos)
        << i;
  }
}

TEST(MetricsTest, GaugesWithLabelsShareOneHelpAndWriteWholeNumbersInFull) {
  Metrics metrics;
  metrics.AddGauge("contractd_deliveries_pending", "Pending deliveries.", "channel=\"mail\"",
                   [] { return 3.0; });
  metrics.AddGauge("contractd_deliveries_pending", "Pending deliveries.", "channel=\"webhook\"",
                   [] { return 0.0; });
  metrics.AddGauge("contractd_process_resident_memory_bytes", "Resident memory.",
                   [] { return 123456789.0; });
  metrics.AddGauge("contractd_oldest_age_seconds", "An age.", [] { return 2.5; });
  const std::string text = metrics.Render();
  EXPECT_NE(text.find("# TYPE contractd_deliveries_pending gauge\n"
                      "contractd_deliveries_pending{channel=\"mail\"} 3\n"
                      "contractd_deliveries_pending{channel=\"webhook\"} 0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("contractd_process_resident_memory_bytes 123456789\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("contractd_oldest_age_seconds 2.5\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace esign::http
