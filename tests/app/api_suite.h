// The suite every end-to-end API test of contractd shares: one contractd process on a fresh
// data directory per test suite, spoken to over loopback by clients of four organizations, and
// the checks that a refused request left the log as it was (the log size is read from /metrics).
#pragma once

#include <boost/json.hpp>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "app/admin_socket.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {

using boost::json::object;
using boost::json::value;

const std::string kAll =
    "contracts:read,contracts:create,contracts:update,contracts:send,templates:read,"
    "templates:write,signing:manage,evidence:write,webhooks:manage,organization:manage";

// A mutual NDA between Ada (party A, platform_hosted) and Grace (party B, integrator_managed).
inline std::string NdaBody(const std::string& title, bool with_roles, bool send_now = false,
                           const std::string& extra_participants = "") {
  std::string a_role = with_roles ? R"(,"templateRoleId":"party_a_signatory")" : "";
  std::string b_role = with_roles ? R"(,"templateRoleId":"party_b_signatory")" : "";
  return R"({"title":")" + title + R"(","templateId":"tpl_mutual_nda",)" +
         (send_now ? R"("sendNow":true,)" : "") +
         R"("data":{"parties":{"partyAName":"Acme GmbH","partyAAddress":"Hauptstrasse 1, Berlin",
"partyBName":"Globex Ltd","partyBAddress":"1 High Street, London"},
"terms":{"effectiveDate":"2026-12-01","purpose":"Evaluating a joint venture","termMonths":24,
"confidentialityYears":5,"governingLaw":"England and Wales"}},
"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
 "name":"Ada Lovelace","email":"ada@acme.example")" +
         a_role + R"(},
{"action":"sign","recipientType":"individual","executionChannel":"integrator_managed",
 "name":"Grace Hopper","email":"grace@globex.example")" +
         b_role + "}" + extra_participants + "]}";
}

class ApiSuite : public ::testing::Test {
 protected:
  struct Org {
    std::string token;
  };

  static void SetUpTestSuite() {
    const std::string suite = ::testing::UnitTest::GetInstance()->current_test_suite()->name();
    data_dir_ = std::filesystem::temp_directory_path() / (suite + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(data_dir_);
    std::vector<std::string> args{CONTRACTD_BINARY,   "serve",    "--data-dir",
                                  data_dir_.string(), "--listen", "127.0.0.1:0"};
    args.insert(args.end(), serve_flags_.begin(), serve_flags_.end());
    server_ = std::make_unique<ChildProcess>(std::move(args));
    auto line = server_->WaitForLine("listening on", std::chrono::seconds(60));
    ASSERT_TRUE(line) << server_->output();
    std::smatch match;
    ASSERT_TRUE(std::regex_search(*line, match, std::regex(R"(127\.0\.0\.1:(\d+))")));
    port_ = static_cast<uint16_t>(std::stoi(match[1]));
    tokens_["a"] = Token("org_a", kAll);
    tokens_["a_create_only"] = Token("org_a", "contracts:create,contracts:read");
    tokens_["a_read_only"] = Token("org_a", "contracts:read");
    tokens_["a_templates_only"] = Token("org_a", "templates:read");
    tokens_["b"] = Token("org_b", kAll);
    tokens_["c"] = Token("org_c", kAll);
    tokens_["d"] = Token("org_d", kAll);
  }

  static void TearDownTestSuite() {
    if (server_) {
      server_->Signal(SIGTERM);
      server_->Wait(std::chrono::seconds(30));
      server_.reset();
    }
    KeepEventSamples(data_dir_);
    std::filesystem::remove_all(data_dir_);
  }

  static std::string Token(const std::string& org, const std::string& permissions) {
    auto created = RunContractd({"clients", "create", "--data-dir", data_dir_.string(), "--org",
                                 org, "--permissions", permissions, "--name", "e2e " + org});
    EXPECT_EQ(created.exit_code, 0) << created.err;
    auto json = boost::json::parse(created.out).as_object();
    HttpClient client(port_);
    auto response =
        client.Post("/api/v1/auth/machine-token",
                    boost::json::serialize(object{{"clientId", json.at("clientId")},
                                                  {"clientSecret", json.at("clientSecret")}}));
    EXPECT_EQ(response.status, 200) << response.body;
    return std::string(response.Json().at("accessToken").as_string());
  }

  static std::map<std::string, std::string> As(const std::string& who,
                                               std::map<std::string, std::string> more = {}) {
    more["Authorization"] = "Bearer " + tokens_.at(who);
    return more;
  }

  // Events in the log, from the service's own gauge.
  static uint64_t LogSize() {
    HttpClient client(port_);
    auto metrics = client.Get("/metrics").body;
    std::smatch match;
    EXPECT_TRUE(std::regex_search(metrics, match, std::regex(R"(contractd_log_events (\d+))")))
        << metrics.substr(0, 2000);
    return match.empty() ? 0 : std::stoull(match[1]);
  }

  // Moves the service's clock (a suite started with --clock-offset) ahead by `seconds`.
  static void AdvanceClock(int64_t seconds) {
    auto answer = app::AdminRequest(
        data_dir_ / "admin.sock",
        R"({"command":"clock.advance","seconds":)" + std::to_string(seconds) + "}",
        std::chrono::seconds(10));
    ASSERT_TRUE(answer && *answer) << (answer ? "no server" : answer.error().message);
    EXPECT_NE((*answer)->find(R"("ok":true)"), std::string::npos) << **answer;
  }

  // Creates a contract as `who`; its JSON.
  object Create(const std::string& who, const std::string& body) {
    auto response = client_.Post("/api/v1/contracts", body, As(who));
    EXPECT_EQ(response.status, 201) << response.body;
    return response.Json().is_object() ? response.Json().as_object() : object{};
  }

  static std::string ParticipantId(const object& contract, size_t index) {
    return std::string(
        contract.at("participants").as_array()[index].at("participantId").as_string());
  }

  // POST .../signing-sessions for the participant; `extra` continues the body's members.
  HttpResult NewSession(const std::string& contract_id, const std::string& participant_id,
                        const std::string& extra = "", const std::string& who = "a") {
    return client_.Post("/api/v1/contracts/" + contract_id + "/signing-sessions",
                        R"({"participantId":")" + participant_id + "\"" + extra + "}", As(who));
  }

  // The token of a hosted session's link.
  static std::string TokenOf(const HttpResult& session) {
    const std::string url(session.Json().at("url").as_string());
    return url.substr(url.rfind('/') + 1);
  }

  // The NDA with roles, Ada's (hosted) participant given `ada_members` after her email.
  static std::string NdaWithAda(const std::string& title, const std::string& ada_members,
                                bool send_now = true) {
    constexpr std::string_view kAdaEmail = R"("email":"ada@acme.example")";
    std::string body = NdaBody(title, /*with_roles=*/true, send_now);
    body.insert(body.find(kAdaEmail) + kAdaEmail.size(), ada_members);
    return body;
  }

  // A sent NDA (NdaWithAda) and a new hosted session of Ada's, with the page's API path.
  struct Hosted {
    std::string contract_id;
    std::string session_id;
    std::string base;  // /api/v1/hosted-signing/<token>
  };
  Hosted SentWithSession(const std::string& title, const std::string& ada_members = "") {
    object contract = Create("a", NdaWithAda(title, ada_members));
    Hosted out;
    out.contract_id = std::string(contract.at("id").as_string());
    auto session = NewSession(out.contract_id, ParticipantId(contract, 0));
    EXPECT_EQ(session.status, 201) << session.body;
    out.session_id = std::string(session.Json().at("sessionId").as_string());
    out.base = "/api/v1/hosted-signing/" + TokenOf(session);
    return out;
  }

  // What Grace's integrator reports when she signed (POST .../signing-sessions/{id}/complete).
  static std::string CompleteBody() {
    return R"({"signerName":"Grace Hopper","signedAt":")" + SignedAtNow() + R"(",
"ipAddress":"198.51.100.4","userAgent":"IntegratorApp/2.1","authenticationMethod":"sso",
"consent":true})";
  }

  // Asserts a refusal with `status` and `code`, and that the log did not grow.
  void ExpectRefused(const HttpResult& response, int status, const std::string& code,
                     uint64_t log_before, const std::string& detail_field = "") {
    EXPECT_EQ(response.status, status) << response.body;
    EXPECT_EQ(response.ErrorCode(), code) << response.body;
    EXPECT_FALSE(response.Json().at("error").at("requestId").as_string().empty());
    if (!detail_field.empty()) {
      bool found = false;
      for (const auto& d : response.Json().at("error").at("details").as_array()) {
        found = found || d.at("field").as_string() == detail_field;
      }
      EXPECT_TRUE(found) << "no detail for " << detail_field << ": " << response.body;
    }
    EXPECT_EQ(LogSize(), log_before) << "a refused request changed the log";
  }

  static inline std::filesystem::path data_dir_;
  // More flags for `contractd serve`, set by a suite before SetUpTestSuite runs.
  static inline std::vector<std::string> serve_flags_;
  static inline std::unique_ptr<ChildProcess> server_;
  static inline uint16_t port_ = 0;
  static inline std::map<std::string, std::string> tokens_;
  HttpClient client_{port_};
};

}  // namespace esign::testing
