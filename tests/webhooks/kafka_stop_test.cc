// Stops whatever the cluster does: `contractd dispatcher` and `contractd serve --kafka-brokers`
// whose cluster has gone away stop on SIGTERM within the documented bound (docs/operations.md),
// and say that the cluster went away; a normal stop on the embedded cluster logs no error.
#include <signal.h>

#include <chrono>
#include <iostream>

#include "tests/app/contractd_fixture.h"
#include "tests/support/temp_dir.h"
#include "webhooks/embedded_kafka.h"

namespace esign::testing {
namespace {

// The bound docs/operations.md promises for a stop, whatever the cluster does.
constexpr auto kStopBound = std::chrono::seconds(10);

// SIGTERMs `child` and expects exit status 0 within kStopBound; prints the time it took.
void ExpectStopWithinBound(ChildProcess& child, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  child.Signal(SIGTERM);
  const auto status = child.Wait(std::chrono::seconds(40));
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  std::cout << what << " stopped " << took.count() << " ms after SIGTERM" << std::endl;
  ASSERT_TRUE(status.has_value()) << what << " did not stop: " << child.output();
  EXPECT_EQ(*status, 0) << child.output();
  EXPECT_LT(took, kStopBound) << child.output();
}

// What `output` holds after its line containing `marker` (all of it when there is none).
std::string After(const std::string& output, const std::string& marker) {
  const auto at = output.find(marker);
  return at == std::string::npos ? output : output.substr(at);
}

class KafkaStopTest : public ContractdFixture {
 protected:
  std::unique_ptr<ChildProcess> StartOnExternalCluster() {
    auto kafka = webhooks::EmbeddedKafka::Start();
    EXPECT_TRUE(kafka) << kafka.error().message;
    if (!kafka) return nullptr;
    kafka_ = std::move(*kafka);
    return StartServer({"--access-log", "false", "--kafka-brokers", kafka_->bootstraps(),
                        "--webhook-dispatcher", "external"});
  }

  std::unique_ptr<webhooks::EmbeddedKafka> kafka_;
};

TEST_F(KafkaStopTest, ADispatcherWhoseClusterIsGoneStopsWithinTheBound) {
  auto server = StartOnExternalCluster();
  ASSERT_TRUE(server);
  TempDir dir;
  ChildProcess dispatcher({CONTRACTD_BINARY, "dispatcher", "--kafka-brokers", kafka_->bootstraps(),
                           "--secrets-dir", (data_dir_ / "webhook-secrets").string(), "--data-dir",
                           dir.path() + "/dispatcher"});
  ASSERT_TRUE(dispatcher.WaitForLine("partitions assigned", std::chrono::seconds(60)))
      << dispatcher.output();

  kafka_.reset();  // the cluster goes away, for good
  ASSERT_TRUE(dispatcher.WaitForLine("contractd: kafka", std::chrono::seconds(10)))
      << "the outage is not logged: " << dispatcher.output();
  ExpectStopWithinBound(dispatcher, "contractd dispatcher");
  ExpectStopWithinBound(*server, "contractd serve");
  // The outage is reported as one, through the service's log.
  const std::string before_stop = server->output().substr(0, server->output().find("stopping"));
  EXPECT_TRUE(before_stop.find("brokers are down") != std::string::npos ||
              before_stop.find("Disconnected") != std::string::npos)
      << before_stop;
  EXPECT_EQ(before_stop.find("%3|"), std::string::npos)
      << "librdkafka's own logger: " << before_stop;
}

TEST_F(KafkaStopTest, ServeWhoseClusterIsGoneStopsWithinTheBound) {
  auto server = StartOnExternalCluster();
  ASSERT_TRUE(server);
  const std::string token = TokenFor(ParseCreated(CreateClient("org_s", "contracts:read")));
  ASSERT_FALSE(token.empty());
  kafka_.reset();
  ASSERT_TRUE(server->WaitForLine("contractd: kafka", std::chrono::seconds(10)))
      << "the outage is not logged: " << server->output();
  ExpectStopWithinBound(*server, "contractd serve");
}

TEST_F(KafkaStopTest, ANormalStopOnTheEmbeddedClusterLogsNoError) {
  auto server = StartServer({"--access-log", "false"});
  const std::string token = TokenFor(ParseCreated(CreateClient("org_q", "contracts:read")));
  ASSERT_FALSE(token.empty());
  HttpClient client(port_);
  EXPECT_EQ(client.Get("/api/v1/contracts?limit=1", {{"Authorization", "Bearer " + token}}).status,
            200);
  ExpectStopWithinBound(*server, "contractd serve (embedded cluster)");
  const std::string stop = After(server->output(), "stopping");
  ASSERT_NE(stop.find("stopped"), std::string::npos) << server->output();
  for (const char* noise : {"ERROR", "error", "%3|", "brokers are down", "Disconnected"}) {
    EXPECT_EQ(stop.find(noise), std::string::npos) << "\"" << noise << "\" in: " << stop;
  }
}

}  // namespace
}  // namespace esign::testing
