// contractd with the replicated log (--replication kafka) on a three-broker cluster in a process
// of its own (kafka-mock-cluster): a writer and standbys, each its own contractd process and data
// directory, a standby made from the writer's backup. What the issue of the replicated log asks:
// the standby's log is the writer's byte for byte; a writer SIGKILLed under load, its data
// directory deleted, loses no acknowledged create once the standby is promoted, and the new head
// is consistent with the old one by an RFC 9162 check of its own; a paused writer is fenced.
#include <sys/wait.h>

#include <atomic>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include "eventstore/rocksdb_options.h"
#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

namespace fs = std::filesystem;

class ReplicationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ = std::make_unique<ChildProcess>(std::vector<std::string>{
        KAFKA_MOCK_CLUSTER_BINARY, "--brokers", "3", "--partitions", "1", "contract-log.main"});
    auto line = cluster_->WaitForLine("bootstrap ", std::chrono::seconds(30));
    ASSERT_TRUE(line) << cluster_->output();
    brokers_ = line->substr(line->find("bootstrap ") + 10);
    while (!brokers_.empty() && std::isspace(static_cast<unsigned char>(brokers_.back()))) {
      brokers_.pop_back();
    }
    base_ = fs::temp_directory_path() /
            ("rp-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_));
    fs::remove_all(base_);
    fs::create_directories(base_);
  }
  void TearDown() override {
    nodes_.clear();
    fs::remove_all(base_);
  }

  struct Node {
    fs::path dir;
    std::unique_ptr<ChildProcess> process;
    uint16_t port = 0;
  };

  // A contractd on `name`'s data directory: the writer, or with `standby` a standby.
  Node& Serve(const std::string& name, bool standby, std::vector<std::string> extra = {}) {
    Node& node = nodes_[name];
    node.dir = base_ / name;
    std::vector<std::string> argv{CONTRACTD_BINARY,
                                  "serve",
                                  "--data-dir",
                                  node.dir.string(),
                                  "--listen",
                                  "127.0.0.1:0",
                                  "--kafka-brokers",
                                  brokers_,
                                  "--replication",
                                  "kafka",
                                  "--rate-limit",
                                  "0",
                                  "--access-log",
                                  "false",
                                  "--tree-head-interval",
                                  "1",
                                  "--public-url",
                                  "http://" + name + ".test"};
    if (standby) argv.push_back("--standby");
    argv.insert(argv.end(), extra.begin(), extra.end());
    node.process = std::make_unique<ChildProcess>(argv);
    node.port = WaitListening(*node.process);
    return node;
  }

  static uint16_t WaitListening(ChildProcess& process, size_t nth = 1) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::smatch match;
    const std::regex listening(R"(listening on http://127\.0\.0\.1:(\d+))");
    while (std::chrono::steady_clock::now() < deadline) {
      const std::string output = process.output();
      size_t seen = 0;
      uint16_t port = 0;
      for (auto it = std::sregex_iterator(output.begin(), output.end(), listening);
           it != std::sregex_iterator(); ++it) {
        ++seen;
        port = static_cast<uint16_t>(std::stoi((*it)[1]));
      }
      if (seen >= nth) return port;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "not listening: " << process.output();
    return 0;
  }

  // A standby made from a backup of `from`, as an operator makes one.
  Node& StandbyFromBackup(const std::string& name, const Node& from,
                          std::vector<std::string> extra = {}) {
    const CommandResult backup =
        RunContractd({"backup", "--data-dir", from.dir.string(), "--to", (base_ / name).string()});
    EXPECT_EQ(backup.exit_code, 0) << backup.err;
    return Serve(name, true, std::move(extra));
  }

  std::string TokenOf(const Node& writer) {
    const CommandResult created =
        RunContractd({"clients", "create", "--data-dir", writer.dir.string(), "--org", "org_rep",
                      "--permissions", "contracts:create,contracts:read,contracts:send", "--name",
                      "Replicated"});
    EXPECT_EQ(created.exit_code, 0) << created.err;
    const auto json = boost::json::parse(created.out).as_object();
    HttpClient client(writer.port);
    auto token = client.Post(
        "/api/v1/auth/machine-token",
        boost::json::serialize(boost::json::object{{"clientId", json.at("clientId")},
                                                   {"clientSecret", json.at("clientSecret")}}));
    EXPECT_EQ(token.status, 200) << token.body;
    return token.status == 200 ? std::string(token.Json().at("accessToken").as_string()) : "";
  }

  static std::map<std::string, std::string> Auth(const std::string& token,
                                                 const std::string& key = "") {
    std::map<std::string, std::string> headers{{"Authorization", "Bearer " + token}};
    if (!key.empty()) headers.emplace("Idempotency-Key", key);
    return headers;
  }

  // Waits until the node's log holds `events` events and its views show them (/metrics).
  static bool WaitForEvents(const Node& node, uint64_t events) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      HttpClient client(node.port);
      auto head = client.Get("/metrics");
      std::smatch match;
      std::smatch lag;
      // The log as far as `events`, and the views as far as the log.
      if (std::regex_search(head.body, match, std::regex(R"(contractd_log_events (\d+))")) &&
          std::stoull(match[1]) >= events &&
          std::regex_search(head.body, lag,
                            std::regex(R"(contractd_projection_lag_events (\d+))")) &&
          lag[1] == "0") {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  static uint64_t LogEvents(const Node& node) {
    HttpClient client(node.port);
    auto metrics = client.Get("/metrics");
    std::smatch match;
    return std::regex_search(metrics.body, match, std::regex(R"(contractd_log_events (\d+))"))
               ? std::stoull(match[1])
               : 0;
  }

  // Every key and value of the log's families, in order, read from a stopped node's database.
  static std::map<std::string, std::vector<std::pair<std::string, std::string>>> LogFamilies(
      const fs::path& dir) {
    eventstore::RocksStoreOptions options;
    options.data_dir = dir.string();
    options.read_only = true;
    auto store = eventstore::RocksEventStore::Open(options);
    EXPECT_TRUE(store) << store.error().message;
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> families;
    if (!store) return families;
    namespace f = eventstore::family;
    // The views too: the same projector over the same log.
    for (const char* family : {f::kEvents, f::kStreams, f::kEventIds, f::kLedgerNodes,
                               f::kTreeHeads, f::kBlobs, f::kProjections}) {
      std::unique_ptr<rocksdb::Iterator> it(
          (*store)->db()->NewIterator(rocksdb::ReadOptions(), (*store)->Family(family)));
      auto& rows = families[family];
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        rows.emplace_back(it->key().ToString(), it->value().ToString());
      }
    }
    return families;
  }

  std::unique_ptr<ChildProcess> cluster_;
  std::string brokers_;
  fs::path base_;
  std::map<std::string, Node> nodes_;
  static inline int counter_ = 0;
};

TEST_F(ReplicationTest, AStandbyFromABackupHoldsTheWritersLogByteForByteAndBothVerify) {
  Node& writer = Serve("w", false);
  ASSERT_NE(writer.port, 0);
  const std::string token = TokenOf(writer);
  HttpClient client(writer.port);
  // Before the backup: the standby catches up on these from the topic, from its backup's mark.
  for (int i = 0; i < 5; ++i) {
    auto created =
        client.Post("/api/v1/contracts", NdaBody("early " + std::to_string(i), true), Auth(token));
    ASSERT_EQ(created.status, 201) << created.body;
  }
  Node& standby = StandbyFromBackup("s", writer);
  ASSERT_NE(standby.port, 0);

  // A mixed workload: creates, creates that send at once (frozen PDFs: blobs), retries of the
  // same key (answered from the log), updates on a stale version (conflicts).
  std::vector<std::jthread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      HttpClient mine(writer.port);
      for (int i = 0; i < 15; ++i) {
        const std::string key = "w-" + std::to_string(t) + "-" + std::to_string(i);
        const auto body = NdaBody(key, true, i % 3 == 0);
        auto created = mine.Post("/api/v1/contracts", body, Auth(token, key));
        EXPECT_EQ(created.status, 201) << created.body;
        if (i % 4 == 1) {
          auto again = mine.Post("/api/v1/contracts", body, Auth(token, key));
          EXPECT_EQ(again.status, 201) << again.body;
          EXPECT_EQ(again.Json().at("id"), created.Json().at("id"));
        }
        if (i % 5 == 2 && created.status == 201) {
          auto stale = mine.Put(
              "/api/v1/contracts/" + std::string(created.Json().at("id").as_string()) + "/data",
              R"({"fieldValues":[{"key":"purpose","value":"renamed"}]})",
              {{"Authorization", "Bearer " + token}, {"If-Match", "\"99\""}});
          EXPECT_TRUE(stale.status == 412 || stale.status == 409) << stale.body;
        }
      }
    });
  }
  threads.clear();
  const uint64_t events = LogEvents(writer);
  ASSERT_TRUE(WaitForEvents(standby, events)) << standby.process->output();

  // Reads on the standby; writes refused with 503 and Retry-After, naming the writer.
  HttpClient reader(standby.port);
  auto listed = reader.Get("/api/v1/contracts?limit=100", Auth(token));
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_EQ(listed.Json().at("items").as_array().size(), 65u);
  // Each answer of a standby says how far its views had applied the log.
  EXPECT_EQ(listed.Header("log-position"), std::to_string(events)) << listed.body;
  auto refused = reader.Post("/api/v1/contracts", NdaBody("on the standby", true), Auth(token));
  EXPECT_EQ(refused.status, 503) << refused.body;
  EXPECT_EQ(refused.ErrorCode(), "UNAVAILABLE");
  EXPECT_EQ(refused.Header("retry-after"), "2");
  EXPECT_NE(refused.body.find("http://w.test"), std::string::npos) << refused.body;

  // Stopped, both directories hold the same log, ledger, heads and blobs, and the auditor's
  // tool verifies and replays each.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the stop's last head
  writer.process->Signal(SIGTERM);
  ASSERT_EQ(writer.process->Wait(std::chrono::seconds(30)), 0) << writer.process->output();
  // The writer's last head reaches the standby before it stops.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  standby.process->Signal(SIGTERM);
  ASSERT_EQ(standby.process->Wait(std::chrono::seconds(30)), 0) << standby.process->output();
  const auto written = LogFamilies(writer.dir);
  const auto followed = LogFamilies(standby.dir);
  ASSERT_EQ(written.size(), followed.size());
  for (const auto& [family, rows] : written) {
    EXPECT_GT(rows.size(), 0u) << family;
    EXPECT_TRUE(rows == followed.at(family)) << family << ": " << rows.size() << " rows written, "
                                             << followed.at(family).size() << " followed";
  }
  for (const Node* node : {&writer, &standby}) {
    const CommandResult verified =
        RunProgram(LEDGER_BINARY, {"verify", "--data-dir", node->dir.string()});
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    const CommandResult replayed =
        RunProgram(LEDGER_BINARY, {"replay", "--data-dir", node->dir.string()});
    EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  }
}

// What one create with a fresh key got before the kill.
struct Attempt {
  std::string key;
  int status = 0;
  std::string contract_id;
};

TEST_F(ReplicationTest, AKilledWritersDiskIsLostAndThePromotedStandbyHasEveryAcknowledgedCreate) {
  Node& writer = Serve("w", false);
  ASSERT_NE(writer.port, 0);
  const std::string token = TokenOf(writer);
  Node& standby = StandbyFromBackup("s", writer);
  ASSERT_NE(standby.port, 0);

  // Eight threads create with Idempotency-Keys until the writer dies under them.
  std::vector<std::vector<Attempt>> attempts(8);
  std::atomic<bool> killed{false};
  std::string head_before;
  {
    std::vector<std::jthread> threads;
    for (size_t t = 0; t < attempts.size(); ++t) {
      threads.emplace_back([&, t] {
        HttpClient client(writer.port);
        for (int i = 0; !killed.load(); ++i) {
          Attempt attempt{.key = "k-" + std::to_string(t) + "-" + std::to_string(i)};
          try {
            auto created = client.Post("/api/v1/contracts", NdaBody(attempt.key, true),
                                       Auth(token, attempt.key));
            attempt.status = created.status;
            if (created.status == 201) {
              attempt.contract_id = std::string(created.Json().at("id").as_string());
            }
          } catch (const boost::system::system_error&) {
            attempt.status = 0;
          }
          attempts[t].push_back(attempt);
          if (attempt.status == 0) break;
        }
      });
    }
    // Short: librdkafka's mock cluster keeps the newest 5 MiB of the log topic, and the standby
    // must never fall that far behind (docs/eventstore.md).
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    HttpClient reader(writer.port);
    auto head = reader.Get("/api/v1/ledger/tree-head");
    ASSERT_EQ(head.status, 200) << head.body;
    head_before = head.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    writer.process->Signal(SIGKILL);
    killed = true;
  }
  const auto killed_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(writer.process->Wait(std::chrono::seconds(10)).has_value());
  fs::remove_all(writer.dir);

  const CommandResult promoted = RunContractd({"promote", "--data-dir", standby.dir.string()});
  ASSERT_EQ(promoted.exit_code, 0) << promoted.err << standby.process->output();
  EXPECT_NE(promoted.out.find(R"("role":"writer")"), std::string::npos) << promoted.out;
  const uint16_t port = WaitListening(*standby.process, 2);
  ASSERT_NE(port, 0);
  HttpClient client(port);
  // The first write on the new writer, and how long after the kill it succeeded.
  auto first = client.Post("/api/v1/contracts", NdaBody("first after failover", true), Auth(token));
  ASSERT_EQ(first.status, 201) << first.body;
  const auto failover = std::chrono::steady_clock::now() - killed_at;
  std::cout << "failover: first write "
            << std::chrono::duration_cast<std::chrono::milliseconds>(failover).count()
            << " ms after the kill" << std::endl;
  EXPECT_LT(failover, std::chrono::seconds(10));

  // Every acknowledged key answers its own contract; every other key at most one.
  size_t acknowledged = 0;
  for (const auto& mine : attempts) {
    for (const Attempt& attempt : mine) {
      SCOPED_TRACE(attempt.key);
      auto again =
          client.Post("/api/v1/contracts", NdaBody(attempt.key, true), Auth(token, attempt.key));
      ASSERT_EQ(again.status, 201) << again.body;
      if (attempt.status == 201) {
        ++acknowledged;
        EXPECT_EQ(again.Json().at("id").as_string(), attempt.contract_id);
        auto read = client.Get("/api/v1/contracts/" + attempt.contract_id, Auth(token));
        EXPECT_EQ(read.status, 200) << read.body;
      } else {
        EXPECT_TRUE(attempt.status == 0 || attempt.status == 503) << attempt.status;
      }
    }
  }
  EXPECT_GT(acknowledged, 20u);
  std::set<std::string> titles;
  std::string cursor;
  for (int page = 0; page < 100; ++page) {
    auto listed = client.Get("/api/v1/contracts?scope=organization&limit=200" +
                                 (cursor.empty() ? "" : "&cursor=" + cursor),
                             Auth(token));
    ASSERT_EQ(listed.status, 200) << listed.body;
    for (const auto& item : listed.Json().at("items").as_array()) {
      EXPECT_TRUE(titles.insert(std::string(item.at("title").as_string())).second)
          << "two contracts for " << item.at("title").as_string();
    }
    if (listed.Json().at("nextCursor").is_null()) break;
    cursor = std::string(listed.Json().at("nextCursor").as_string());
  }

  // The relay starts on the new writer and publishes the log to contract-events from where the
  // standby's backup left it: the acknowledged creates the old writer published included.
  bool relayed = false;
  for (int i = 0; i < 300 && !relayed; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const HttpResult metrics = client.Get("/metrics");
    std::smatch lag;
    relayed = std::regex_search(metrics.body, lag,
                                std::regex(R"(contractd_kafka_relay_lag_events (\d+))")) &&
              lag[1] == "0";
  }
  EXPECT_TRUE(relayed) << "the new writer's relay did not catch up with its log";

  // The new writer continues the same ledger: its next signed head is consistent with the last
  // head read from the old writer, by the RFC's algorithm written apart from ours.
  const auto old_head = boost::json::parse(head_before).as_object();
  const uint64_t old_size = old_head.at("size").to_number<uint64_t>();
  HttpResult new_head;
  for (int i = 0; i < 100; ++i) {
    new_head = client.Get("/api/v1/ledger/tree-head");
    if (new_head.status == 200 && new_head.Json().at("size").to_number<uint64_t>() > old_size)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(new_head.status, 200) << new_head.body;
  const uint64_t new_size = new_head.Json().at("size").to_number<uint64_t>();
  ASSERT_GT(new_size, old_size);
  auto proof = client.Get("/api/v1/ledger/consistency?from=" + std::to_string(old_size) +
                          "&to=" + std::to_string(new_size));
  ASSERT_EQ(proof.status, 200) << proof.body;
  std::vector<std::string> args{
      std::string(SOURCE_DIR) + "/tests/support/rfc9162_consistency.mjs", std::to_string(old_size),
      std::string(old_head.at("root").as_string()), std::to_string(new_size),
      std::string(new_head.Json().at("root").as_string())};
  for (const auto& hash : proof.Json().at("proof").as_array()) {
    args.emplace_back(hash.as_string());
  }
  const CommandResult checked = RunProgram(NODE_EXECUTABLE, args);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("consistent"), std::string::npos);
}

TEST_F(ReplicationTest, APausedWriterIsFencedByAPromotionAndOfTwoPromotionsOneWins) {
  Node& writer = Serve("w", false);
  ASSERT_NE(writer.port, 0);
  const std::string token = TokenOf(writer);
  HttpClient client(writer.port);
  ASSERT_EQ(client.Post("/api/v1/contracts", NdaBody("before", true), Auth(token)).status, 201);
  Node& first = StandbyFromBackup("s1", writer);
  Node& second = StandbyFromBackup("s2", writer);
  ASSERT_NE(first.port, 0);
  ASSERT_NE(second.port, 0);

  writer.process->Signal(SIGSTOP);
  CommandResult promoted_first;
  CommandResult promoted_second;
  {
    std::jthread a([&] {
      promoted_first = RunContractd({"promote", "--data-dir", first.dir.string()});
    });
    std::jthread b([&] {
      promoted_second = RunContractd({"promote", "--data-dir", second.dir.string()});
    });
  }
  EXPECT_NE(promoted_first.exit_code == 0, promoted_second.exit_code == 0)
      << promoted_first.out << promoted_first.err << " / " << promoted_second.out
      << promoted_second.err;
  Node& winner = promoted_first.exit_code == 0 ? first : second;
  Node& loser = promoted_first.exit_code == 0 ? second : first;
  EXPECT_NE((promoted_first.exit_code == 0 ? promoted_second : promoted_first).err.find("failed"),
            std::string::npos);
  // Each started again: the winner as the writer, the loser as a standby once more.
  const uint16_t winner_port = winner.port = WaitListening(*winner.process, 2);
  const uint16_t loser_port = loser.port = WaitListening(*loser.process, 2);

  // The old writer wakes up believing it still writes: nothing more is acknowledged, and it
  // steps down to a standby.
  writer.process->Signal(SIGCONT);
  HttpClient old(writer.port);
  auto late = old.Post("/api/v1/contracts", NdaBody("late", true), Auth(token));
  EXPECT_EQ(late.status, 503) << late.body;
  EXPECT_TRUE(writer.process->WaitForLine("stepping down", std::chrono::seconds(20)))
      << writer.process->output();

  HttpClient new_writer(winner_port);
  auto after = new_writer.Post("/api/v1/contracts", NdaBody("after", true), Auth(token));
  EXPECT_EQ(after.status, 201) << after.body;
  HttpClient other(loser_port);
  auto on_loser = other.Post("/api/v1/contracts", NdaBody("on the loser", true), Auth(token));
  EXPECT_EQ(on_loser.status, 503) << on_loser.body;
  // The loser follows the winner: it lists "after", never "late".
  const uint64_t events = LogEvents(winner);
  ASSERT_TRUE(WaitForEvents(loser, events));
  // Its views follow its log a moment later.
  std::set<std::string> titles;
  for (int i = 0; i < 100 && !titles.contains("after"); ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto listed = other.Get("/api/v1/contracts?limit=100", Auth(token));
    ASSERT_EQ(listed.status, 200);
    titles.clear();
    for (const auto& item : listed.Json().at("items").as_array()) {
      titles.insert(std::string(item.at("title").as_string()));
    }
  }
  EXPECT_TRUE(titles.contains("after"));
  EXPECT_FALSE(titles.contains("late"));
  EXPECT_FALSE(titles.contains("on the loser"));
}

TEST_F(ReplicationTest, AStandbyWithAutoPromoteTakesOverWhenTheWriterIsGoneAndNotBefore) {
  Node& writer = Serve("w", false);
  ASSERT_NE(writer.port, 0);
  const std::string token = TokenOf(writer);
  Node& standby = StandbyFromBackup("s", writer, {"--auto-promote"});
  ASSERT_NE(standby.port, 0);
  // While the writer lives, the standby stays one: the writer holds the group.
  std::this_thread::sleep_for(std::chrono::seconds(8));
  HttpClient client(writer.port);
  auto created =
      client.Post("/api/v1/contracts", NdaBody("while alive", true), Auth(token, "alive"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(standby.process->output().find("tries to take over"), std::string::npos)
      << standby.process->output();

  writer.process->Signal(SIGKILL);
  const auto killed_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(writer.process->Wait(std::chrono::seconds(10)).has_value());
  const uint16_t port = WaitListening(*standby.process, 2);
  ASSERT_NE(port, 0) << standby.process->output();
  HttpClient promoted(port);
  HttpResult first;
  while (std::chrono::steady_clock::now() - killed_at < std::chrono::seconds(30)) {
    first = promoted.Post("/api/v1/contracts", NdaBody("after", true), Auth(token, "after"));
    if (first.status == 201) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(first.status, 201) << first.body;
  const auto took = std::chrono::steady_clock::now() - killed_at;
  std::cout << "auto-promotion: first write "
            << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
            << " ms after the kill" << std::endl;
  EXPECT_LT(took, std::chrono::seconds(20));
  auto kept =
      promoted.Post("/api/v1/contracts", NdaBody("while alive", true), Auth(token, "alive"));
  ASSERT_EQ(kept.status, 201) << kept.body;
  EXPECT_EQ(kept.Json().at("id"), created.Json().at("id"));
}

}  // namespace
}  // namespace esign::testing
