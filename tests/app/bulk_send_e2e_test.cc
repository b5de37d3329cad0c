// Bulk sends at full size and across a crash (DESIGN 23): 10,000 rows through the API as JSON and
// 10,000 as CSV each become 10,000 sent contracts, listed by their job; and a job whose contractd
// is SIGKILLed halfway and started again sends every row exactly once: each row names one
// contract, and the job's contracts are exactly those, no row's twice.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>

#include "tests/app/api_suite.h"
#include "tests/app/contractd_fixture.h"

namespace esign::testing {
namespace {

std::string Row(int n, bool csv) {
  const std::string i = std::to_string(n);
  if (csv) {
    return "\"Bulk NDA " + i + "\",Acme GmbH,\"Hauptstrasse 1, Berlin\",Globex Ltd,1 High Street," +
           "2026-12-01,A joint venture,24,5,England and Wales,Ada Lovelace,ada+" + i +
           "@acme.example,Grace Hopper,grace+" + i + "@globex.example\r\n";
  }
  return R"({"title":"Bulk NDA )" + i + R"(","data":{"parties":{"partyAName":"Acme GmbH",
"partyAAddress":"Hauptstrasse 1, Berlin","partyBName":"Globex Ltd","partyBAddress":"1 High Street"},
"terms":{"effectiveDate":"2026-12-01","purpose":"A joint venture","termMonths":24,
"confidentialityYears":5,"governingLaw":"England and Wales"}},"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
"name":"Ada Lovelace","email":"ada+)" +
         i + R"(@acme.example","templateRoleId":"party_a_signatory"},
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
"name":"Grace Hopper","email":"grace+)" +
         i + R"(@globex.example","templateRoleId":"party_b_signatory"}]})";
}

std::string JsonJob(int rows) {
  std::string body = R"({"templateId":"tpl_mutual_nda","rows":[)";
  for (int n = 0; n < rows; ++n) body += (n == 0 ? "" : ",") + Row(n, false);
  return body + "]}";
}

std::string CsvJob(int rows) {
  std::string csv =
      "title,partyAName,partyAAddress,partyBName,partyBAddress,effectiveDate,purpose,termMonths,"
      "confidentialityYears,governingLaw,party_a_signatory.name,party_a_signatory.email,"
      "party_b_signatory.name,party_b_signatory.email\r\n";
  for (int n = 0; n < rows; ++n) csv += Row(n, true);
  return csv;
}

class BulkSendE2eTest : public RestartedServerFixture {
 protected:
  BulkSendE2eTest()
      : RestartedServerFixture("org_bulk", "contracts:create,contracts:read,contracts:send") {}

  void Start(const std::string& rate) {
    StartAndLogIn({"--rate-limit", "0", "--access-log", "false", "--bulk-rate", rate});
    ASSERT_NE(port_, 0);
  }

  std::string Create(const std::string& body, const std::string& target,
                     const std::string& content_type) {
    auto headers = Auth();
    headers["Content-Type"] = content_type;
    auto created = HttpClient(port_).Post(target, body, headers);
    EXPECT_EQ(created.status, 202) << created.body.substr(0, 500);
    return created.status == 202 ? std::string(created.Json().at("id").as_string()) : "";
  }

  object Job(const std::string& id) {
    auto job = HttpClient(port_).Get("/api/v1/bulk-sends/" + id, Auth());
    EXPECT_EQ(job.status, 200) << job.body;
    return job.Json().as_object();
  }

  // Waits (up to `limit`) until the job ended.
  object Finished(const std::string& id, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      object job = Job(id);
      if (job.at("state") == "completed" || job.at("state") == "cancelled") return job;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ADD_FAILURE() << "bulk send " << id << " did not end: " << boost::json::serialize(Job(id));
    return {};
  }

  // Each row's contract, in row order; a failed row fails the test.
  std::vector<std::string> RowContracts(const std::string& id, int rows) {
    std::vector<std::string> contracts;
    HttpClient client(port_);
    for (int from = 0; from < rows; from += 500) {
      auto page = client.Get(
          "/api/v1/bulk-sends/" + id + "/rows?limit=500&from=" + std::to_string(from), Auth());
      EXPECT_EQ(page.status, 200) << page.body;
      for (const auto& row : page.Json().at("items").as_array()) {
        EXPECT_EQ(row.at("state"), "sent") << boost::json::serialize(row);
        contracts.emplace_back(row.at("contractId").is_string() ? row.at("contractId").as_string()
                                                                : "");
      }
    }
    return contracts;
  }

  // Every contract the list finds for the job; a contract listed twice fails.
  std::multiset<std::string> Listed(const std::string& id) {
    std::multiset<std::string> ids;
    HttpClient client(port_);
    std::string cursor;
    for (int page = 0; page < 1000; ++page) {
      auto list = client.Get("/api/v1/contracts?limit=200&bulkSendId=" + id +
                                 (cursor.empty() ? "" : "&cursor=" + cursor),
                             Auth());
      EXPECT_EQ(list.status, 200) << list.body;
      for (const auto& item : list.Json().at("items").as_array()) {
        EXPECT_EQ(item.at("status"), "sent");
        ids.insert(std::string(item.at("id").as_string()));
      }
      if (list.Json().at("nextCursor").is_null()) break;
      cursor = std::string(list.Json().at("nextCursor").as_string());
    }
    return ids;
  }

  void ExpectEveryRowSentOnce(const std::string& id, int rows) {
    const std::vector<std::string> contracts = RowContracts(id, rows);
    ASSERT_EQ(contracts.size(), static_cast<size_t>(rows));
    const std::set<std::string> distinct(contracts.begin(), contracts.end());
    EXPECT_EQ(distinct.size(), static_cast<size_t>(rows)) << "two rows name one contract";
    const std::multiset<std::string> listed = Listed(id);
    EXPECT_EQ(listed.size(), static_cast<size_t>(rows)) << "the job made another number of "
                                                           "contracts than it has rows";
    EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), distinct);
  }
};

TEST_F(BulkSendE2eTest, TenThousandRowsAsJsonAndAsCsv) {
  constexpr int kRows = 10'000;
  ASSERT_NO_FATAL_FAILURE(Start("1000"));
  const std::string json = Create(JsonJob(kRows), "/api/v1/bulk-sends", "application/json");
  const std::string csv =
      Create(CsvJob(kRows), "/api/v1/bulk-sends?templateId=tpl_mutual_nda", "text/csv");
  ASSERT_FALSE(json.empty());
  ASSERT_FALSE(csv.empty());
  for (const std::string& id : {json, csv}) {
    const object job = Finished(id, std::chrono::seconds(480));
    EXPECT_EQ(job.at("counts"),
              boost::json::parse(R"({"pending":0,"sent":10000,"failed":0,"notSent":0})"));
    ExpectEveryRowSentOnce(id, kRows);
  }
}

TEST_F(BulkSendE2eTest, SigkillDuringAJobSendsEveryRowExactlyOnce) {
  constexpr int kRows = 600;
  ASSERT_NO_FATAL_FAILURE(Start("100"));
  const std::string id = Create(JsonJob(kRows), "/api/v1/bulk-sends", "application/json");
  ASSERT_FALSE(id.empty());
  // Past the first progress, then at a moment within a chunk: rows sent but not yet recorded.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (Job(id).at("counts").at("sent").as_int64() < 150 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(std::random_device{}() % 700));
  const int64_t before_kill = Job(id).at("counts").at("sent").as_int64();
  ASSERT_GE(before_kill, 150);
  ASSERT_LT(before_kill, kRows) << "the job ended before the kill";
  ASSERT_NO_FATAL_FAILURE(Kill());

  ASSERT_NO_FATAL_FAILURE(Start("1000"));
  const object job = Finished(id, std::chrono::seconds(120));
  EXPECT_EQ(job.at("counts"),
            boost::json::parse(R"({"pending":0,"sent":600,"failed":0,"notSent":0})"));
  ExpectEveryRowSentOnce(id, kRows);
}

}  // namespace
}  // namespace esign::testing
