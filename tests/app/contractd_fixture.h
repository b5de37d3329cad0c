// What the end-to-end tests of contractd share: a fresh data directory per test, a server started
// on it as a child process, the command line run to completion with both outputs captured, and
// the store opened afterwards to check exactly what was written.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "base/time_text.h"
#include "eventstore/rocksdb_event_store.h"
#include "tests/app/event_samples.h"
#include "tests/support/child_process.h"
#include "tests/support/http_client.h"

namespace esign::testing {

// Now, as the service writes times: a signedAt an integrator reports for a signature just made
// (it may not precede the session, nor lie ahead of the service's clock).
inline std::string SignedAtNow() {
  return FormatTimestamp(std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count());
}

// A contract to create and send at once: a mutual NDA that Ada signs on the hosted page and
// Grace through the integrator.
inline constexpr std::string_view kSentNdaBody =
    R"({"title":"Frozen","templateId":"tpl_mutual_nda","sendNow":true,"data":{"parties":{
"partyAName":"Acme GmbH","partyAAddress":"Hauptstrasse 1, Berlin","partyBName":"Globex Ltd",
"partyBAddress":"1 High Street, London"},"terms":{"effectiveDate":"2026-12-01",
"purpose":"Evaluating a joint venture","termMonths":24,"confidentialityYears":5,
"governingLaw":"England and Wales"}},"participants":[{"action":"sign",
"recipientType":"individual","executionChannel":"platform_hosted","name":"Ada Lovelace",
"email":"ada@acme.example","templateRoleId":"party_a_signatory"},{"action":"sign",
"recipientType":"individual","executionChannel":"integrator_managed","name":"Grace Hopper",
"email":"grace@globex.example","templateRoleId":"party_b_signatory"}]})";

// Both signatures of a sent NDA (kSentNdaBody, or api_suite.h's NdaBody with roles): Ada on her
// hosted page, Grace through an integrator-managed session. `contract` is the created contract.
inline void SignSentNda(HttpClient& client, const std::map<std::string, std::string>& auth,
                        const boost::json::object& contract) {
  const auto& participants = contract.at("participants").as_array();
  const std::string sessions =
      "/api/v1/contracts/" + std::string(contract.at("id").as_string()) + "/signing-sessions";
  auto session_of = [&](size_t i) {
    return client.Post(sessions,
                       R"({"participantId":")" +
                           std::string(participants.at(i).at("participantId").as_string()) + "\"}",
                       auth);
  };
  auto hosted = session_of(0);
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const std::string url(hosted.Json().at("url").as_string());
  auto signed_a =
      client.Post("/api/v1/hosted-signing/" + url.substr(url.rfind('/') + 1) + "/complete",
                  R"({"signatureText":"Ada Lovelace","consent":true})");
  ASSERT_EQ(signed_a.status, 200) << signed_a.body;
  auto managed = session_of(1);
  ASSERT_EQ(managed.status, 201) << managed.body;
  auto signed_b =
      client.Post("/api/v1/signing-sessions/" +
                      std::string(managed.Json().at("sessionId").as_string()) + "/complete",
                  R"({"signerName":"Grace Hopper","signedAt":")" + SignedAtNow() +
                      R"(","ipAddress":"198.51.100.4",
"userAgent":"IntegratorApp/2.1","authenticationMethod":"sso","consent":true})",
                  auth);
  ASSERT_EQ(signed_b.status, 200) << signed_b.body;
}

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `binary` with `args` to completion (at most `timeout`), capturing stdout and stderr.
inline CommandResult RunProgram(const std::string& binary, const std::vector<std::string>& args,
                                std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  CommandResult result;
  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return result;
  std::vector<std::string> argv{binary};
  argv.insert(argv.end(), args.begin(), args.end());
  // Dies with the test (child_process.h), like every child of the tests.
  const pid_t pid = SpawnChild(argv, out_pipe[1], err_pipe[1]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return result;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0 && std::chrono::steady_clock::now() < deadline) {
    if (poll(fds, 2, 100) <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& fd : fds) {
    if (fd.fd >= 0) close(fd.fd);
  }
  if (open_fds > 0) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// Runs contractd with `args` to completion (at most `timeout`), capturing stdout and stderr.
inline CommandResult RunContractd(const std::vector<std::string>& args,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  return RunProgram(CONTRACTD_BINARY, args, timeout);
}

class ContractdFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    // Short names: the admin socket's path must fit a Unix socket address.
    data_dir_ = std::filesystem::temp_directory_path() /
                ("cd-" + std::to_string(::getpid()) + "-" + std::to_string(++counter_));
    std::filesystem::remove_all(data_dir_);
  }
  void TearDown() override {
    KeepEventSamples(data_dir_);
    std::filesystem::remove_all(data_dir_);
  }

  std::unique_ptr<ChildProcess> StartServer(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{CONTRACTD_BINARY,   "serve",    "--data-dir",
                                  data_dir_.string(), "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto child = std::make_unique<ChildProcess>(argv);
    auto line = child->WaitForLine("listening on", std::chrono::seconds(60));
    EXPECT_TRUE(line.has_value()) << child->output();
    std::smatch match;
    port_ = 0;
    if (line && std::regex_search(*line, match, std::regex(R"(127\.0\.0\.1:(\d+))"))) {
      port_ = static_cast<uint16_t>(std::stoi(match[1]));
    }
    return child;
  }

  static void StopServer(ChildProcess& child) {
    child.Signal(SIGTERM);
    auto status = child.Wait(std::chrono::seconds(30));
    ASSERT_TRUE(status.has_value()) << "did not stop";
    EXPECT_EQ(*status, 0) << child.output();
  }

  CommandResult CreateClient(const std::string& org, const std::string& permissions,
                             const std::string& name = "Test client") {
    return RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org", org,
                         "--permissions", permissions, "--name", name});
  }

  struct Credentials {
    std::string client_id;
    std::string client_secret;
  };

  // The credentials of a successful `clients create`, checking the one JSON line it prints.
  static Credentials ParseCreated(const CommandResult& result) {
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
    boost::system::error_code ec;
    auto value = boost::json::parse(result.out, ec);
    if (ec || !value.is_object()) {
      ADD_FAILURE() << "not one JSON object: " << result.out;
      return {};
    }
    const auto& object = value.as_object();
    EXPECT_EQ(object.size(), 4u) << result.out;
    return {std::string(object.at("clientId").as_string()),
            std::string(object.at("clientSecret").as_string())};
  }

  // POST machine-token; the access token, or "" (with a test failure) when refused.
  std::string TokenFor(const Credentials& credentials) {
    HttpClient client(port_);
    auto response = client.Post(
        "/api/v1/auth/machine-token",
        boost::json::serialize(boost::json::object{{"clientId", credentials.client_id},
                                                   {"clientSecret", credentials.client_secret}}));
    EXPECT_EQ(response.status, 200) << response.body;
    if (response.status != 200) return "";
    return std::string(response.Json().at("accessToken").as_string());
  }

  // The data directory's store, read-only: it works beside a running server and, unlike an open
  // for writing, leaves the WAL as it is.
  std::unique_ptr<eventstore::RocksEventStore> OpenReadOnlyStore() {
    eventstore::RocksStoreOptions options;
    options.data_dir = data_dir_.string();
    options.read_only = true;
    auto store = eventstore::RocksEventStore::Open(options);
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }

  // Every event of the data directory's log; the server must be stopped.
  std::vector<eventstore::EventRecord> StoredEvents() {
    eventstore::RocksStoreOptions options;
    options.data_dir = data_dir_.string();
    auto store = eventstore::RocksEventStore::Open(options);
    EXPECT_TRUE(store) << store.error().message;
    if (!store) return {};
    auto events = (*store)->ReadAll(GlobalPosition(0), 1'000'000);
    (*store)->Close();
    EXPECT_TRUE(events);
    return events ? *events : std::vector<eventstore::EventRecord>{};
  }
  size_t CountEvents(std::string_view type) {
    size_t count = 0;
    for (const auto& e : StoredEvents()) count += e.type == type ? 1 : 0;
    return count;
  }

  static inline int counter_ = 0;
  std::filesystem::path data_dir_;
  uint16_t port_ = 0;
};

// A fixture whose tests stop and restart one server on their data directory, as one client of
// `organization` with `permissions`, created before the first start.
class RestartedServerFixture : public ContractdFixture {
 protected:
  RestartedServerFixture(std::string organization, std::string permissions)
      : organization_(std::move(organization)), permissions_(std::move(permissions)) {}
  void SetUp() override {
    ContractdFixture::SetUp();
    credentials_ = ParseCreated(CreateClient(organization_, permissions_));
  }
  void StartAndLogIn(std::vector<std::string> extra = {}) {
    server_ = StartServer(std::move(extra));
    token_ = TokenFor(credentials_);
  }
  void Kill() {
    server_->Signal(SIGKILL);
    ASSERT_TRUE(server_->Wait(std::chrono::seconds(30)).has_value());
    server_.reset();
  }
  std::map<std::string, std::string> Auth() const {
    return {{"Authorization", "Bearer " + token_}};
  }

  const std::string organization_;
  const std::string permissions_;
  Credentials credentials_;
  std::unique_ptr<ChildProcess> server_;
  std::string token_;
};

}  // namespace esign::testing
