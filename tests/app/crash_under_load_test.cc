// contractd killed under load: client threads create contracts with Idempotency-Keys over HTTP
// while the service is SIGKILLed at a random moment, then restarted on the same data directory for
// the next round. Afterwards every acknowledged create is readable, a retry of every key answers
// one contract (the acknowledged one where there was an answer), the organization lists exactly
// one contract per key, and the ledger tool verifies the log and replays views equal to the live
// ones. The short run is CI's; ESIGN_CRASH_KILLS, ESIGN_CRASH_THREADS and ESIGN_CRASH_SEED turn
// the same test into the long one (benchmarks/crash_soak.sh).
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <random>
#include <set>
#include <thread>

#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/shell.h"

namespace esign::testing {
namespace {

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value == nullptr || *value == '\0' ? fallback : std::stoull(value);
}

// What one create with a fresh key got before the kill.
struct Attempt {
  std::string key;
  bool send_now = false;
  int status = 0;           // 0: no answer, the connection died with the service
  std::string contract_id;  // of a 201
  std::string body;         // of an answer that is not a 201
};

// The key is the title too, so every stored contract names the key that created it.
std::string BodyOf(const Attempt& attempt) { return NdaBody(attempt.key, true, attempt.send_now); }

std::map<std::string, std::string> KeyedAuth(const std::string& token, const std::string& key) {
  return {{"Authorization", "Bearer " + token}, {"Idempotency-Key", key}};
}

// POST /contracts; a status of 0 when there was no answer (refused connection, dropped answer).
HttpResult PostCreate(HttpClient& client, const std::string& token, const Attempt& attempt) {
  try {
    return client.Post("/api/v1/contracts", BodyOf(attempt), KeyedAuth(token, attempt.key));
  } catch (const boost::system::system_error&) {
    return HttpResult{};
  }
}

std::string IdOf(const HttpResult& result) {
  const auto& json = result.Json();
  if (!json.is_object()) return "";
  const auto* id = json.as_object().if_contains("id");
  return id != nullptr && id->is_string() ? std::string(id->as_string()) : "";
}

// One client thread: creates with fresh keys, one after another on one keep-alive connection,
// until a request gets no answer (the service was killed). Every fourth contract is sent at once,
// so document rendering and blob writes are cut by kills too.
std::vector<Attempt> CreateUntilKilled(uint16_t port, const std::string& token,
                                       const std::string& key_prefix) {
  HttpClient client(port);
  std::vector<Attempt> attempts;
  for (size_t n = 0;; ++n) {
    Attempt attempt{.key = key_prefix + "-" + std::to_string(n), .send_now = n % 4 == 3};
    const HttpResult result = PostCreate(client, token, attempt);
    attempt.status = result.status;
    if (result.status == 201) {
      attempt.contract_id = IdOf(result);
    } else {
      attempt.body = result.body;
    }
    attempts.push_back(std::move(attempt));
    if (result.status == 0) return attempts;
  }
}

class CrashUnderLoadTest : public RestartedServerFixture {
 protected:
  CrashUnderLoadTest()
      : RestartedServerFixture("org_crash", "contracts:create,contracts:read,contracts:send") {}

  void Start() {
    // No rate limit: the threads are one client. No access log: nothing to read in it here.
    StartAndLogIn({"--rate-limit", "0", "--access-log", "false"});
    ASSERT_NE(port_, 0);
    ASSERT_FALSE(token_.empty());
  }

  // Every contract the organization lists, by title (its key); a title listed twice fails.
  std::map<std::string, std::string> ListedByTitle() {
    std::map<std::string, std::string> listed;
    HttpClient client(port_);
    std::string cursor;
    for (int page = 0; page < 100'000; ++page) {
      const HttpResult result = client.Get("/api/v1/contracts?scope=organization&limit=200" +
                                               (cursor.empty() ? "" : "&cursor=" + cursor),
                                           Auth());
      EXPECT_EQ(result.status, 200) << result.body;
      if (result.status != 200) break;
      const auto& json = result.Json().as_object();
      for (const auto& item : json.at("items").as_array()) {
        const std::string title(item.at("title").as_string());
        const std::string id(item.at("id").as_string());
        const bool fresh = listed.emplace(title, id).second;
        EXPECT_TRUE(fresh) << "two contracts for key " << title << ": " << listed[title] << ", "
                           << id;
      }
      if (json.at("nextCursor").is_null()) break;
      cursor = std::string(json.at("nextCursor").as_string());
    }
    return listed;
  }
};

TEST_F(CrashUnderLoadTest, EveryAcknowledgedCreateSurvivesKillsAndEveryKeyAnswersOneContract) {
  const uint64_t kills = EnvOr("ESIGN_CRASH_KILLS", 3);
  const uint64_t threads = EnvOr("ESIGN_CRASH_THREADS", 8);
  const uint64_t seed = EnvOr("ESIGN_CRASH_SEED", std::random_device{}());
  SCOPED_TRACE("ESIGN_CRASH_SEED=" + std::to_string(seed));
  std::cout << "crash under load: " << kills << " kills, " << threads << " threads, seed " << seed
            << std::endl;
  std::mt19937_64 random(seed);
  const auto started = std::chrono::steady_clock::now();

  std::vector<Attempt> attempts;
  for (uint64_t round = 0; round < kills; ++round) {
    ASSERT_NO_FATAL_FAILURE(Start()) << "restart " << round;
    const std::chrono::milliseconds kill_after(std::uniform_int_distribution<int>(50, 800)(random));
    std::vector<std::vector<Attempt>> per_thread(threads);
    {
      std::vector<std::jthread> workers;
      for (uint64_t t = 0; t < threads; ++t) {
        const std::string prefix =
            "crash-" + std::to_string(seed) + "-" + std::to_string(round) + "-" + std::to_string(t);
        workers.emplace_back([&per_thread, t, prefix, port = port_, token = token_] {
          per_thread[t] = CreateUntilKilled(port, token, prefix);
        });
      }
      std::this_thread::sleep_for(kill_after);
      Kill();
    }  // the threads stop at their first unanswered request
    ASSERT_FALSE(HasFatalFailure()) << "the kill of round " << round;
    for (auto& mine : per_thread) {
      // Each thread was still sending when the service died: its last request got no answer.
      std::move(mine.begin(), mine.end(), std::back_inserter(attempts));
    }
  }

  ASSERT_NO_FATAL_FAILURE(Start()) << "the restart after the last kill";
  size_t acknowledged = 0;
  size_t unanswered = 0;
  size_t refused = 0;
  for (const Attempt& attempt : attempts) {
    if (attempt.status == 201) {
      ++acknowledged;
      EXPECT_FALSE(attempt.contract_id.empty()) << attempt.key;
    } else if (attempt.status == 0) {
      ++unanswered;
    } else {
      // A load refused is refused for a passing reason, with a documented code; a retry creates.
      ++refused;
      EXPECT_EQ(attempt.status, 503) << attempt.key << ": " << attempt.body;
      HttpResult answer;
      answer.body = attempt.body;
      EXPECT_FALSE(answer.ErrorCode().empty()) << attempt.body;
    }
  }
  ASSERT_GT(acknowledged, 0u) << "no create was acknowledged before the kills";

  // Before any retry: what the kills left stored, one contract per key at most.
  const std::map<std::string, std::string> stored = ListedByTitle();
  std::set<std::string> keys;
  for (const Attempt& attempt : attempts) keys.insert(attempt.key);
  for (const auto& [title, id] : stored) {
    EXPECT_TRUE(keys.contains(title)) << "a contract no key created: " << id << " " << title;
  }

  HttpClient client(port_);
  size_t stored_unanswered = 0;
  size_t matched = 0;
  std::set<std::string> answered_ids;
  for (const Attempt& attempt : attempts) {
    SCOPED_TRACE(attempt.key);
    const auto listed = stored.find(attempt.key);
    if (attempt.status == 201) {
      ASSERT_NE(listed, stored.end()) << "an acknowledged create is not listed";
      EXPECT_EQ(listed->second, attempt.contract_id);
      const HttpResult read = client.Get("/api/v1/contracts/" + attempt.contract_id, Auth());
      ASSERT_EQ(read.status, 200) << read.body;
      EXPECT_EQ(IdOf(read), attempt.contract_id);
      EXPECT_EQ(read.Json().at("title").as_string(), attempt.key);
      EXPECT_EQ(read.Json().at("status").as_string(), attempt.send_now ? "sent" : "draft");
    } else if (listed != stored.end()) {
      ++stored_unanswered;
    }
    // The retry answers the contract the key stands for: the acknowledged one, the one a lost
    // answer stored, or a new one, which a second retry answers again.
    const HttpResult retry = PostCreate(client, token_, attempt);
    ASSERT_EQ(retry.status, 201) << retry.body;
    const std::string id = IdOf(retry);
    EXPECT_EQ(retry.Json().at("title").as_string(), attempt.key);
    std::string expected = id;
    if (attempt.status == 201) {
      expected = attempt.contract_id;
    } else if (listed != stored.end()) {
      expected = listed->second;
    }
    EXPECT_EQ(id, expected);
    const HttpResult again = PostCreate(client, token_, attempt);
    ASSERT_EQ(again.status, 201) << again.body;
    EXPECT_EQ(IdOf(again), id);
    EXPECT_TRUE(answered_ids.insert(id).second) << "two keys answered " << id;
    matched += id == expected && IdOf(again) == id ? 1 : 0;
  }

  // After the retries: exactly one contract per key, and nothing else.
  const std::map<std::string, std::string> listed_after = ListedByTitle();
  EXPECT_EQ(listed_after.size(), keys.size());

  StopServer(*server_);
  server_.reset();
  std::map<std::string, size_t> reservations_by_stream;
  size_t created_events = 0;
  for (const auto& event : StoredEvents()) {
    created_events += event.type == "contract.created" ? 1 : 0;
    if (event.type == "idempotency.reserved") ++reservations_by_stream[event.stream_id];
  }
  EXPECT_EQ(created_events, keys.size());
  EXPECT_EQ(reservations_by_stream.size(), keys.size());
  for (const auto& [stream, count] : reservations_by_stream) EXPECT_EQ(count, 1u) << stream;

  const std::string ledger = std::string("'") + LEDGER_BINARY + "' ";
  const ShellResult verified =
      RunShell(ledger + "verify --data-dir '" + data_dir_.string() + "' 2>&1");
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  EXPECT_NE(verified.out.find("verify: ok"), std::string::npos) << verified.out;
  const ShellResult replayed =
      RunShell(ledger + "replay --data-dir '" + data_dir_.string() + "' 2>&1");
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out;
  EXPECT_NE(replayed.out.find("replay: equal"), std::string::npos) << replayed.out;

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "crash under load: kills " << kills << ", threads " << threads << ", seed " << seed
            << ", creates acknowledged " << acknowledged << ", unanswered " << unanswered
            << " (stored " << stored_unanswered << "), refused " << refused
            << ", keys retried and matched " << matched << "/" << attempts.size() << ", events "
            << created_events << " contracts, verify "
            << (verified.exit_code == 0 ? "ok" : "FAILED") << ", replay "
            << (replayed.exit_code == 0 ? "equal" : "FAILED") << ", " << seconds << " s"
            << std::endl;
}

}  // namespace
}  // namespace esign::testing
