// webhook_bench: the delivery pipeline end to end in one process, as contractd runs it: appends to
// the RocksDB event store, the Kafka relay to the embedded cluster, the dispatcher (consumer
// group, delivery store, per-endpoint lanes, Beast client) and a receiver on loopback (the
// service's own HTTP server answering 200). One line of figures per workload:
//   throughput  `--events` contract events as fast as they can be appended, each to every one of
//               `--endpoints` endpoints: deliveries/s from the first append to the last delivery,
//               and how long after the first append the first delivery arrived. The burst starts
//               `--idle` seconds after the dispatcher: with 0 its consumer group is still forming
//               (3 s, see docs/webhooks.md) and the figure includes that; with 5 the consumer is
//               up and idle when the burst comes
//   latency     events appended at `--rate` per second for `--seconds`, to `--latency-endpoints`
//               endpoints: time from the append to the delivery's arrival, p50/p99/max
//   webhook_bench [--endpoints 10] [--events 5000] [--rate 1000] [--seconds 5]
//                 [--latency-endpoints 1] [--idle 0]
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "commands/endpoint_commands.h"
#include "delivery/delivery_store.h"
#include "domain/id_generator.h"
#include "domain/stream_kinds.h"
#include "eventstore/rocksdb_event_store.h"
#include "http/server.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/endpoint_directory.h"
#include "webhooks/endpoint_secrets.h"
#include "webhooks/kafka_relay.h"
#include "webhooks/webhook_delivery.h"

namespace {

using namespace esign;  // NOLINT(google-build-using-namespace): a benchmark's main file
using Steady = std::chrono::steady_clock;

struct Flags {
  int endpoints = 10;
  int events = 5000;
  int rate = 1000;
  int seconds = 5;
  int latency_endpoints = 1;
  int idle = 0;
};

// The eventId of a delivery's body, found without parsing it: the receiver must cost little
// beside the sender, or the benchmark measures the receiver.
std::string_view EventIdOf(std::string_view body) {
  constexpr std::string_view kKey = R"("eventId":")";
  const size_t start = body.find(kKey);
  if (start == std::string_view::npos) return {};
  const size_t end = body.find('"', start + kKey.size());
  if (end == std::string_view::npos) return {};
  return body.substr(start + kKey.size(), end - start - kKey.size());
}

// Answers 200 to every delivery and notes when each (event, endpoint) arrived.
class Receiver final : public http::RequestHandler {
 public:
  void Handle(http::Request request, const http::RequestContext& /*context*/,
              http::Respond respond) override {
    const auto now = Steady::now();
    if (const std::string_view event_id = EventIdOf(request.body()); !event_id.empty()) {
      std::lock_guard lock(mutex_);
      arrivals_[std::string(event_id)].push_back(now);
      ++count_;
    }
    http::Response response{boost::beast::http::status::ok, request.version()};
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    respond(std::move(response));
  }
  // Deliveries that arrived more than once (allowed: at least once), as (event, arrivals) pairs.
  size_t Repeated(size_t per_event) const {
    std::lock_guard lock(mutex_);
    size_t repeated = 0;
    for (const auto& [id, times] : arrivals_) {
      if (times.size() > per_event) repeated += times.size() - per_event;
    }
    return repeated;
  }
  size_t count() const {
    std::lock_guard lock(mutex_);
    return count_;
  }
  std::vector<Steady::time_point> ArrivalsOf(const std::string& event_id) const {
    std::lock_guard lock(mutex_);
    auto it = arrivals_.find(event_id);
    return it == arrivals_.end() ? std::vector<Steady::time_point>{} : it->second;
  }
  Steady::time_point Last() const {
    std::lock_guard lock(mutex_);
    Steady::time_point last{};
    for (const auto& [id, times] : arrivals_) {
      for (auto t : times) last = std::max(last, t);
    }
    return last;
  }
  Steady::time_point First() const {
    std::lock_guard lock(mutex_);
    Steady::time_point first = Steady::time_point::max();
    for (const auto& [id, times] : arrivals_) {
      for (auto t : times) first = std::min(first, t);
    }
    return first;
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::vector<Steady::time_point>> arrivals_;
  size_t count_ = 0;
};

bool WaitForCount(const Receiver& receiver, size_t count, std::chrono::seconds timeout) {
  const auto deadline = Steady::now() + timeout;
  while (receiver.count() < count && Steady::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return receiver.count() >= count;
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (name == "--endpoints") flags.endpoints = value;
    if (name == "--events") flags.events = value;
    if (name == "--rate") flags.rate = value;
    if (name == "--seconds") flags.seconds = value;
    if (name == "--latency-endpoints") flags.latency_endpoints = value;
    if (name == "--idle") flags.idle = value;
  }
  return flags;
}

std::string ContractCreated(const std::string& organization) {
  return boost::json::serialize(boost::json::object{{"organizationId", organization}});
}

}  // namespace

int main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  std::string dir_pattern =
      (std::filesystem::temp_directory_path() / "webhook-bench-XXXXXX").string();
  if (::mkdtemp(dir_pattern.data()) == nullptr) return 1;
  const std::string dir = dir_pattern;
  auto fail = [&](const std::string& what, const Error& error) {
    std::cerr << "webhook_bench: " << what << ": " << error.message << std::endl;
    std::filesystem::remove_all(dir);
    return 1;
  };

  eventstore::RocksStoreOptions store_options;
  store_options.data_dir = dir;
  auto store = eventstore::RocksEventStore::Open(store_options);
  if (!store) return fail("store", store.error());
  auto kafka = webhooks::EmbeddedKafka::Start();
  if (!kafka) return fail("kafka", kafka.error());
  auto checkpoint = webhooks::RelayCheckpoint::Open(**store, std::string(kContractEventsTopic));
  if (!checkpoint) return fail("checkpoint", checkpoint.error());
  auto auth = webhooks::MessageAuth::FromKey(RandomBytes(webhooks::kMessageKeyBytes));
  if (!auth) return fail("message key", auth.error());
  webhooks::KafkaRelayOptions relay_options;
  relay_options.brokers = (*kafka)->bootstraps();
  relay_options.auth = *auth;
  auto relay = webhooks::KafkaRelay::Start(**store, std::move(*checkpoint), relay_options);
  if (!relay) return fail("relay", relay.error());

  projections::MemoryViewStore views;
  webhooks::EndpointDirectory directory;
  projections::Projector projector(**store, views, {&directory});
  if (auto started = projector.Start(); !started) return fail("projector", started.error());
  auto secrets = webhooks::EndpointSecrets::Open(dir);
  if (!secrets) return fail("secrets", secrets.error());
  commands::EndpointCommands commands(
      **store, **secrets, {.allow_loopback = true},
      [&](std::string_view organization) -> Result<size_t> {
        projector.WaitFor((*store)->Size(), std::chrono::seconds(10));
        return directory.OfOrganization(organization).size();
      },
      nullptr, RandomIdGenerator::Instance(), SystemClock::Instance());
  auto deliveries = delivery::DeliveryStore::Open(dir);
  if (!deliveries) return fail("deliveries", deliveries.error());

  Receiver receiver;
  http::ServerOptions server_options;
  server_options.port = 0;
  server_options.threads = 1;
  auto server = http::HttpServer::Start(server_options, receiver);
  if (!server) return fail("receiver", server.error());
  const std::string url = "http://127.0.0.1:" + std::to_string((*server)->port()) + "/hook";

  auto delivery = webhooks::WebhookDelivery::Start(
      webhooks::WebhookDeliveryDeps{
          .directory = directory,
          .secrets = **secrets,
          .deliveries = **deliveries,
          .clock = SystemClock::Instance(),
          .disable = [&commands](
                         std::string_view endpoint_id,
                         std::string_view reason) { return commands.Disable(endpoint_id, reason); },
          .wait_for_directory =
              [&projector](uint64_t position) {
                return projector.WaitFor(position + 1, std::chrono::seconds(10));
              }},
      {.role = webhooks::DeliveryRole::kInProcess,
       .brokers = (*kafka)->bootstraps(),
       .auth = *auth,
       .sender = {.allow_loopback = true}});
  if (!delivery) return fail("delivery", delivery.error());
  const auto dispatcher_started = Steady::now();

  auto add_endpoints = [&](const std::string& organization, int count) -> bool {
    for (int i = 0; i < count; ++i) {
      auto created = commands.Create(
          {organization, {}},
          boost::json::parse(R"({"url":")" + url + R"(","eventTypes":["contract.created"]})")
              .as_object());
      if (!created) return fail("endpoint", created.error()) == 0;
    }
    return projector.WaitFor((*store)->Size(), std::chrono::seconds(10));
  };
  int next_contract = 0;
  auto append = [&](const std::string& organization) {
    const std::string event_id = RandomIdGenerator::Instance().Next("evt_");
    const auto at = Steady::now();
    (void)(*store)->Append("contract-ctr_bench" + std::to_string(next_contract++),
                           eventstore::ExpectedVersion::NoStream(),
                           {{event_id, "contract.created", 1, ContractCreated(organization), {}}});
    return std::make_pair(event_id, at);
  };

  // throughput
  if (!add_endpoints("org_throughput", flags.endpoints)) return 1;
  std::this_thread::sleep_until(dispatcher_started + std::chrono::seconds(flags.idle));
  const size_t expected = static_cast<size_t>(flags.endpoints) * flags.events;
  const auto started = Steady::now();
  {
    // Appended from several threads, as request handlers do, so appends share group commits.
    std::atomic<int> next{0};
    constexpr int kWriters = 8;
    std::vector<std::jthread> writers;
    writers.reserve(kWriters);
    for (int t = 0; t < kWriters; ++t) {
      writers.emplace_back([&] {
        for (int i = next++; i < flags.events; i = next++) {
          (void)(*store)->Append("contract-ctr_burst" + std::to_string(i),
                                 eventstore::ExpectedVersion::NoStream(),
                                 {{RandomIdGenerator::Instance().Next("evt_"),
                                   "contract.created",
                                   1,
                                   ContractCreated("org_throughput"),
                                   {}}});
        }
      });
    }
  }
  const bool all = WaitForCount(receiver, expected, std::chrono::seconds(300));
  const double elapsed = std::chrono::duration<double>(receiver.Last() - started).count();
  const double first = std::chrono::duration<double>(receiver.First() - started).count();
  std::printf(
      "throughput   : %8zu deliveries in %6.2f s = %8.0f deliveries/s (%d endpoints, %d events, "
      "%zu repeated, first after %.2f s, idle %d s)%s\n",
      receiver.count(), elapsed, static_cast<double>(receiver.count()) / elapsed, flags.endpoints,
      flags.events, receiver.Repeated(static_cast<size_t>(flags.endpoints)), first, flags.idle,
      all ? "" : " INCOMPLETE");

  // latency
  if (!add_endpoints("org_latency", flags.latency_endpoints)) return 1;
  const size_t before = receiver.count();
  const int total = flags.rate * flags.seconds;
  std::vector<std::pair<std::string, Steady::time_point>> appended;
  appended.reserve(static_cast<size_t>(total));
  const auto interval = std::chrono::nanoseconds(1'000'000'000 / std::max(1, flags.rate));
  const auto begin = Steady::now();
  for (int i = 0; i < total; ++i) {
    std::this_thread::sleep_until(begin + interval * i);
    appended.push_back(append("org_latency"));
  }
  const size_t latency_expected = before + static_cast<size_t>(total) * flags.latency_endpoints;
  const bool complete = WaitForCount(receiver, latency_expected, std::chrono::seconds(120));
  std::vector<double> latencies;
  for (const auto& [event_id, at] : appended) {
    for (auto arrived : receiver.ArrivalsOf(event_id)) {
      latencies.push_back(std::chrono::duration<double, std::milli>(arrived - at).count());
    }
  }
  std::sort(latencies.begin(), latencies.end());
  auto pct = [&](double p) {
    return latencies.empty() ? 0.0
                             : latencies[std::min(
                                   latencies.size() - 1,
                                   static_cast<size_t>(p * static_cast<double>(latencies.size())))];
  };
  std::printf(
      "latency      : %8zu deliveries at %d events/s for %d s (%d endpoint%s): p50 %.1f ms  p99 "
      "%.1f ms  max %.1f ms%s\n",
      latencies.size(), flags.rate, flags.seconds, flags.latency_endpoints,
      flags.latency_endpoints == 1 ? "" : "s", pct(0.50), pct(0.99),
      latencies.empty() ? 0.0 : latencies.back(), complete ? "" : " INCOMPLETE");

  (*delivery)->Stop();
  (*server)->Stop();
  (*relay)->Stop();
  projector.Stop();
  (*store)->Close();
  std::filesystem::remove_all(dir);
  return all && complete ? 0 : 1;
}
