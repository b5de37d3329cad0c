// Durable timers end to end (DESIGN section 14): contractd killed with SIGKILL around the due
// times of its contracts fires each timer exactly once after it restarts; reminders days ahead
// follow a clock moved through the admin socket, across a kill and a restart.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "app/admin_socket.h"
#include "base/time_text.h"
#include "domain/clock.h"
#include "tests/app/contractd_fixture.h"
#include "tests/support/eventually.h"

namespace esign::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int64_t kDaySeconds = int64_t{24} * 3600;

class TimersTest : public RestartedServerFixture {
 protected:
  TimersTest()
      : RestartedServerFixture("org_timers", "contracts:create,contracts:read,contracts:send") {}

  // A sent mutual NDA (two signers in parallel) with these signing settings, reminded after 3
  // days, then every 3 days, at most 3 times.
  std::string SendNda(const boost::json::object& signing_settings) {
    std::ifstream in(std::string(SOURCE_DIR) + "/examples/requests/create-nda.json");
    std::stringstream text;
    text << in.rdbuf();
    auto body = boost::json::parse(text.str()).as_object();
    body["sendNow"] = true;
    body["signingSettings"] = signing_settings;
    body["notifications"] = boost::json::object{
        {"reminder", {{"firstAfterDays", 3}, {"intervalDays", 3}, {"maxCount", 3}}}};
    auto created =
        HttpClient(port_).Post("/api/v1/contracts", boost::json::serialize(body), Auth());
    EXPECT_EQ(created.status, 201) << created.body;
    if (created.status != 201) return "";
    return std::string(created.Json().at("id").as_string());
  }

  // How many events of `type` the contract's audit trail shows.
  size_t Trail(const std::string& id, std::string_view type) {
    auto trail = HttpClient(port_).Get("/api/v1/contracts/" + id + "/evidence/audit-trail", Auth());
    EXPECT_EQ(trail.status, 200) << trail.body;
    if (trail.status != 200) return 0;
    size_t count = 0;
    for (const auto& event : trail.Json().at("events").as_array()) {
      count += event.at("type").as_string() == type ? 1 : 0;
    }
    return count;
  }

  std::string Status(const std::string& id) {
    auto status = HttpClient(port_).Get("/api/v1/contracts/" + id + "/status", Auth());
    EXPECT_EQ(status.status, 200) << status.body;
    return status.status == 200 ? std::string(status.Json().at("status").as_string()) : "";
  }

  void AdvanceClock(int64_t by_seconds) {
    auto answer = app::AdminRequest(
        data_dir_ / "admin.sock",
        R"({"command":"clock.advance","seconds":)" + std::to_string(by_seconds) + "}", seconds(10));
    ASSERT_TRUE(answer && *answer) << (answer ? "no server" : answer.error().message);
    EXPECT_NE((*answer)->find(R"("ok":true)"), std::string::npos) << **answer;
  }
};

TEST_F(TimersTest, ExpiryFiresExactlyOnceWhenTheServiceIsKilledAroundItsDueTimes) {
  StartAndLogIn();
  // Ten contracts due 40 ms apart, the kill in the middle of them: some have fired, one may be
  // in flight, the rest fell due while the service was down.
  const int64_t first_due = SystemClock::Instance().NowMicros() + 3'000'000;
  std::vector<std::string> ids;
  for (int i = 0; i < 10; ++i) {
    ids.push_back(SendNda({{"expiresAt", FormatTimestamp(first_due + i * 40'000)}}));
  }
  std::this_thread::sleep_for(
      std::chrono::microseconds(first_due + 200'000 - SystemClock::Instance().NowMicros()));
  Kill();
  std::this_thread::sleep_for(milliseconds(500));

  StartAndLogIn();
  for (const auto& id : ids) {
    EXPECT_TRUE(Eventually([&] { return Status(id) == "expired"; })) << id;
    EXPECT_EQ(Trail(id, "contract.expired"), 1u) << id;
  }
  // A second kill and start find nothing more to do.
  Kill();
  StartAndLogIn();
  std::this_thread::sleep_for(milliseconds(500));
  StopServer(*server_);
  server_.reset();
  EXPECT_EQ(CountEvents("contract.expired"), ids.size());
}

TEST_F(TimersTest, RemindersFollowTheMovedClockAcrossAKill) {
  StartAndLogIn({"--clock-offset", "0"});
  const std::string id = SendNda({});
  AdvanceClock(3 * kDaySeconds - 60);
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(Trail(id, "participant.reminded"), 0u);

  AdvanceClock(60);
  EXPECT_TRUE(Eventually([&] { return Trail(id, "participant.reminded") == 2; }));

  Kill();
  StartAndLogIn({"--clock-offset", std::to_string(3 * kDaySeconds)});
  std::this_thread::sleep_for(milliseconds(500));
  EXPECT_EQ(Trail(id, "participant.reminded"), 2u);  // nothing repeated at start
  AdvanceClock(3 * kDaySeconds);
  EXPECT_TRUE(Eventually([&] { return Trail(id, "participant.reminded") == 4; }));

  // Thirty days after sending the contract expires. The third reminder, due on day 9, is passed
  // over by the jump: a contract that expires is not reminded at the same moment.
  AdvanceClock(25 * kDaySeconds);
  EXPECT_TRUE(Eventually([&] { return Status(id) == "expired"; }));
  EXPECT_EQ(Trail(id, "participant.reminded"), 4u);
  EXPECT_EQ(Trail(id, "contract.expired"), 1u);
  StopServer(*server_);
  server_.reset();
}

TEST_F(TimersTest, TheClockMovesOnlyWhenTheServiceWasStartedWithAnOffset) {
  StartAndLogIn();
  auto answer = app::AdminRequest(data_dir_ / "admin.sock",
                                  R"({"command":"clock.advance","seconds":60})", seconds(10));
  ASSERT_TRUE(answer && *answer);
  EXPECT_NE((*answer)->find("VALIDATION_FAILED"), std::string::npos) << **answer;
  StopServer(*server_);
  server_.reset();
}

TEST_F(TimersTest, ABadClockAdvanceIsRefusedAndMovesNothing) {
  StartAndLogIn({"--clock-offset", "0"});
  for (const char* bad : {R"("seconds":0)", R"("seconds":"a day")", R"("seconds":31622401)", ""}) {
    auto answer = app::AdminRequest(
        data_dir_ / "admin.sock",
        std::string(R"({"command":"clock.advance")") + (*bad != 0 ? "," : "") + bad + "}",
        seconds(10));
    ASSERT_TRUE(answer && *answer) << bad;
    EXPECT_NE((*answer)->find("VALIDATION_FAILED"), std::string::npos) << **answer;
  }
  AdvanceClock(60);  // a good one afterwards moves the clock by exactly that
  auto answer = app::AdminRequest(data_dir_ / "admin.sock",
                                  R"({"command":"clock.advance","seconds":1})", seconds(10));
  ASSERT_TRUE(answer && *answer);
  EXPECT_NE((*answer)->find(R"("offsetSeconds":61)"), std::string::npos) << **answer;
  StopServer(*server_);
  server_.reset();
}

}  // namespace
}  // namespace esign::testing
