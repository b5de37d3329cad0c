// Bulk send over the real API (DESIGN 23): a job from JSON rows and one from a CSV, each row a
// contract created and sent by the runner, a row with bad data reported while the others are
// sent, the contracts listed by their job, an Idempotency-Key that answers the same job, a cancel
// that stops the rows not yet sent, bulk_send.completed delivered to a webhook endpoint, and every
// refusal leaving the log as it was.
#include <gtest/gtest.h>

#include <thread>

#include "tests/app/api_suite.h"
#include "tests/support/http_receiver.h"

namespace esign::testing {
namespace {

// A JSON row of the NDA for recipient `n` (Ada and Grace sign on the hosted page).
object Row(int n, const std::string& term_months = "24") {
  return boost::json::parse(
             R"({"title":"Bulk NDA )" + std::to_string(n) + R"(",
"data":{"parties":{"partyAName":"Acme GmbH","partyAAddress":"Hauptstrasse 1, Berlin",
"partyBName":"Globex Ltd","partyBAddress":"1 High Street, London"},
"terms":{"effectiveDate":"2026-12-01","purpose":"A joint venture","termMonths":)" +
             term_months + R"(,"confidentialityYears":5,"governingLaw":"England and Wales"}},
"participants":[
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
 "name":"Ada Lovelace","email":"ada+)" +
             std::to_string(n) +
             R"(@acme.example","templateRoleId":"party_a_signatory"},
{"action":"sign","recipientType":"individual","executionChannel":"platform_hosted",
 "name":"Grace Hopper","email":"grace+)" +
             std::to_string(n) + R"(@globex.example","templateRoleId":"party_b_signatory"}]})")
      .as_object();
}

std::string JobBody(int rows, int bad_row = -1) {
  boost::json::array list;
  for (int n = 0; n < rows; ++n) list.push_back(Row(n, n == bad_row ? "\"twelve\"" : "24"));
  return boost::json::serialize(object{{"templateId", "tpl_mutual_nda"}, {"rows", list}});
}

std::string Csv(int rows) {
  std::string csv =
      "title,partyAName,partyAAddress,partyBName,partyBAddress,effectiveDate,purpose,"
      "terms.termMonths,confidentialityYears,governingLaw,party_a_signatory.name,"
      "party_a_signatory.email,party_b_signatory.name,party_b_signatory.email\r\n";
  for (int n = 0; n < rows; ++n) {
    const std::string i = std::to_string(n);
    csv += "\"CSV NDA " + i + "\",Acme GmbH,\"Hauptstrasse 1, Berlin\",Globex Ltd,1 High Street," +
           "2026-12-01,A joint venture,24,5,England and Wales,Ada Lovelace,ada+c" + i +
           "@acme.example,Grace Hopper,grace+c" + i + "@globex.example\r\n";
  }
  return csv;
}

class BulkSendApiTest : public ApiSuite {
 protected:
  static void SetUpTestSuite() {
    serve_flags_ = {"--webhook-allow-loopback", "--bulk-rate", "200"};
    ApiSuite::SetUpTestSuite();
  }

  HttpResult Post(const std::string& body, std::map<std::string, std::string> headers = {},
                  const std::string& who = "a", const std::string& target = "/api/v1/bulk-sends") {
    return client_.Post(target, body, As(who, std::move(headers)));
  }

  // Polls the job until it ended (up to a minute).
  object Finished(const std::string& id, const std::string& who = "a") {
    for (int i = 0; i < 600; ++i) {
      auto job = client_.Get("/api/v1/bulk-sends/" + id, As(who));
      EXPECT_EQ(job.status, 200) << job.body;
      const auto state = job.Json().at("state").as_string();
      if (state == "completed" || state == "cancelled") return job.Json().as_object();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "bulk send " << id << " did not end";
    return {};
  }

  boost::json::array Rows(const std::string& id, int from = 0, int limit = 500) {
    auto rows = client_.Get("/api/v1/bulk-sends/" + id + "/rows?from=" + std::to_string(from) +
                                "&limit=" + std::to_string(limit),
                            As("a"));
    EXPECT_EQ(rows.status, 200) << rows.body;
    return rows.Json().at("items").as_array();
  }

  // Every contract the list finds for the job, following cursors.
  std::set<std::string> Listed(const std::string& id) {
    std::set<std::string> ids;
    std::string cursor;
    for (int page = 0; page < 100; ++page) {
      auto list = client_.Get("/api/v1/contracts?limit=200&bulkSendId=" + id +
                                  (cursor.empty() ? "" : "&cursor=" + cursor),
                              As("a"));
      EXPECT_EQ(list.status, 200) << list.body;
      for (const auto& item : list.Json().at("items").as_array()) {
        ids.insert(std::string(item.at("id").as_string()));
      }
      const auto& next = list.Json().at("nextCursor");
      if (next.is_null()) break;
      cursor = std::string(next.as_string());
    }
    return ids;
  }
};

TEST_F(BulkSendApiTest, RowsBecomeSentContractsAndABadRowFailsAlone) {
  HttpReceiver receiver;
  auto endpoint = client_.Post(
      "/api/v1/webhooks/endpoints",
      boost::json::serialize(object{{"url", receiver.Url("/hooks")},
                                    {"eventTypes", boost::json::array{"bulk_send.completed"}}}),
      As("a"));
  ASSERT_EQ(endpoint.status, 201) << endpoint.body;

  auto created = Post(JobBody(30, 7), {{"Idempotency-Key", "bulk-30"}});
  ASSERT_EQ(created.status, 202) << created.body;
  const std::string id(created.Json().at("id").as_string());
  EXPECT_EQ(created.Header("location"), "/api/v1/bulk-sends/" + id);
  EXPECT_EQ(created.Json().at("rowCount"), 30);
  // The same key and body: the same job, not another.
  auto again = Post(JobBody(30, 7), {{"Idempotency-Key", "bulk-30"}});
  EXPECT_EQ(again.status, 202);
  EXPECT_EQ(again.Json().at("id").as_string(), id);
  const object job = Finished(id);
  // The same key with another body, once the job is done (the runner writes while it runs).
  const uint64_t before = LogSize();
  ExpectRefused(Post(JobBody(29), {{"Idempotency-Key", "bulk-30"}}), 409, "IDEMPOTENCY_KEY_REUSED",
                before);
  EXPECT_EQ(job.at("state"), "completed");
  EXPECT_EQ(job.at("counts"),
            boost::json::parse(R"({"pending":0,"sent":29,"failed":1,"notSent":0})"));
  const boost::json::array rows = Rows(id);
  ASSERT_EQ(rows.size(), 30u);
  std::set<std::string> from_rows;
  for (const auto& row : rows) {
    if (row.at("row") == 7) {
      EXPECT_EQ(row.at("state"), "failed");
      EXPECT_EQ(row.at("error").at("code"), "VALIDATION_FAILED");
      EXPECT_EQ(row.at("error").at("details").at(0).at("field"), "data.terms.termMonths");
      continue;
    }
    EXPECT_EQ(row.at("state"), "sent");
    from_rows.insert(std::string(row.at("contractId").as_string()));
  }
  EXPECT_EQ(from_rows.size(), 29u);
  EXPECT_EQ(Listed(id), from_rows);
  auto contract = client_.Get("/api/v1/contracts/" + *from_rows.begin(), As("a"));
  EXPECT_EQ(contract.Json().at("status"), "sent");
  EXPECT_EQ(contract.Json().at("bulkSendId").as_string(), id);
  // Pages of rows.
  const boost::json::array page = Rows(id, 28, 5);
  EXPECT_EQ(page.size(), 2u);
  EXPECT_EQ(page.at(0).at("row"), 28);

  ASSERT_TRUE(receiver.WaitFor(1, std::chrono::seconds(30)));
  const auto hook = boost::json::parse(receiver.Requests().front().body);
  EXPECT_EQ(hook.at("type"), "bulk_send.completed");
  EXPECT_EQ(hook.at("data").at("bulkSendId").as_string(), id);
  EXPECT_EQ(hook.at("data").at("sent"), 29);
  EXPECT_EQ(hook.at("data").at("failed"), 1);
  EXPECT_EQ(hook.at("data").at("state"), "completed");
  EXPECT_FALSE(receiver.Requests().front().headers["webhook-signature"].empty());
}

TEST_F(BulkSendApiTest, ACsvBecomesTheSameRows) {
  auto created = Post(Csv(12), {{"Content-Type", "text/csv"}}, "a",
                      "/api/v1/bulk-sends?templateId=tpl_mutual_nda");
  ASSERT_EQ(created.status, 202) << created.body;
  const std::string id(created.Json().at("id").as_string());
  const object job = Finished(id);
  EXPECT_EQ(job.at("counts"),
            boost::json::parse(R"({"pending":0,"sent":12,"failed":0,"notSent":0})"))
      << boost::json::serialize(Rows(id, 0, 1));
  const auto rows = Rows(id);
  auto contract = client_.Get(
      "/api/v1/contracts/" + std::string(rows.at(3).at("contractId").as_string()), As("a"));
  EXPECT_EQ(contract.Json().at("title"), "CSV NDA 3");
  EXPECT_EQ(Listed(id).size(), 12u);
}

TEST_F(BulkSendApiTest, CancelStopsTheRowsNotYetSent) {
  // 400 rows at 200 a second: the cancel comes once the first 100 are recorded, while most of
  // the others wait.
  auto created = Post(JobBody(400));
  ASSERT_EQ(created.status, 202) << created.body;
  const std::string id(created.Json().at("id").as_string());
  for (int i = 0; i < 500; ++i) {
    auto job = client_.Get("/api/v1/bulk-sends/" + id, As("a"));
    if (job.Json().at("counts").at("sent").as_int64() >= 100) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto cancelled = client_.Post("/api/v1/bulk-sends/" + id + "/cancel", "", As("a"));
  ASSERT_EQ(cancelled.status, 200) << cancelled.body;
  const object job = Finished(id);
  EXPECT_EQ(job.at("state"), "cancelled");
  const auto& counts = job.at("counts");
  const int64_t sent = counts.at("sent").as_int64();
  EXPECT_GT(sent, 0);
  EXPECT_GT(counts.at("notSent").as_int64(), 0);
  EXPECT_EQ(sent + counts.at("notSent").as_int64(), 400);
  EXPECT_EQ(static_cast<int64_t>(Listed(id).size()), sent);
  EXPECT_EQ(Rows(id, 399, 1).at(0).at("state"), "not_sent");
  // Cancelling what ended changes nothing.
  const uint64_t before = LogSize();
  EXPECT_EQ(client_.Post("/api/v1/bulk-sends/" + id + "/cancel", "", As("a")).status, 200);
  EXPECT_EQ(LogSize(), before);
}

TEST_F(BulkSendApiTest, AnOrganizationRunsAtMostFiveJobsAtOnce) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    auto created = Post(JobBody(400), {}, "d");
    ASSERT_EQ(created.status, 202) << created.body;
    ids.emplace_back(created.Json().at("id").as_string());
  }
  // The log moves while the jobs run: the refusal is checked by its answer and by what it did
  // not make.
  auto refused = Post(JobBody(1), {}, "d");
  EXPECT_EQ(refused.status, 429) << refused.body;
  EXPECT_EQ(refused.ErrorCode(), "RATE_LIMITED");
  // Another organization is not held back by this one's jobs.
  auto other = Post(JobBody(1), {}, "c");
  EXPECT_EQ(other.status, 202) << other.body;
  for (const std::string& id : ids) {
    EXPECT_EQ(client_.Post("/api/v1/bulk-sends/" + id + "/cancel", "", As("d")).status, 200);
  }
  for (const std::string& id : ids) Finished(id, "d");
  auto again = Post(JobBody(1), {}, "d");
  EXPECT_EQ(again.status, 202) << again.body;
  Finished(std::string(again.Json().at("id").as_string()), "d");
}

TEST_F(BulkSendApiTest, RefusalsChangeNothing) {
  const uint64_t before = LogSize();
  ExpectRefused(Post(JobBody(1), {}, "a_create_only"), 403, "PERMISSION_DENIED", before);
  ExpectRefused(Post(R"({"templateId":"tpl_nope","rows":[{"participants":[]}]})"), 404,
                "TEMPLATE_NOT_FOUND", before, "templateId");
  ExpectRefused(Post(R"({"templateId":"tpl_mutual_nda","rows":[]})"), 400, "VALIDATION_FAILED",
                before, "rows");
  ExpectRefused(Post(R"({"templateId":"tpl_mutual_nda","rows":[{"data":1}],"extra":true})"), 400,
                "VALIDATION_FAILED", before, "rows[0].participants");
  ExpectRefused(Post("a,b\n1,2\n", {{"Content-Type", "text/csv"}}, "a",
                     "/api/v1/bulk-sends?templateId=tpl_mutual_nda"),
                400, "VALIDATION_FAILED", before, "csv");
  ExpectRefused(Post(Csv(1), {{"Content-Type", "text/csv"}}), 400, "VALIDATION_FAILED", before,
                "templateId");
  ExpectRefused(Post("x", {{"Content-Type", "text/plain"}}), 415, "UNSUPPORTED_MEDIA_TYPE", before);
  ExpectRefused(Post(std::string(5 * 1024 * 1024 + 1, 'a'), {{"Content-Type", "text/csv"}}, "a",
                     "/api/v1/bulk-sends?templateId=tpl_mutual_nda"),
                413, "PAYLOAD_TOO_LARGE", before);
  ExpectRefused(Post(JobBody(1), {}, "a", "/api/v1/bulk-sends?templateId=tpl_mutual_nda"), 400,
                "VALIDATION_FAILED", before, "templateId");
  ExpectRefused(Post(Csv(1), {{"Content-Type", "text/csv"}}, "a",
                     "/api/v1/bulk-sends?templateId=tpl_mutual_nda&sheet=1"),
                400, "VALIDATION_FAILED", before, "sheet");
  ExpectRefused(client_.Get("/api/v1/bulk-sends/bsd_x?verbose=1", As("a")), 400,
                "VALIDATION_FAILED", before, "verbose");
  ExpectRefused(client_.Get("/api/v1/bulk-sends/bsd_x/rows?page=2", As("a")), 400,
                "VALIDATION_FAILED", before, "page");
  ExpectRefused(client_.Get("/api/v1/bulk-sends/bsd_unknown", As("a")), 404, "BULK_SEND_NOT_FOUND",
                before);
  ExpectRefused(client_.Get("/api/v1/bulk-sends/bsd_x/rows?limit=0", As("a")), 400,
                "VALIDATION_FAILED", before, "limit");
  // Another organization's job is not found, to read or to cancel.
  auto created = Post(JobBody(1));
  ASSERT_EQ(created.status, 202);
  const std::string id(created.Json().at("id").as_string());
  Finished(id);
  const uint64_t after = LogSize();
  ExpectRefused(client_.Post("/api/v1/bulk-sends/" + id + "/cancel", R"({"now":true})", As("a")),
                400, "VALIDATION_FAILED", after, "now");
  ExpectRefused(client_.Get("/api/v1/bulk-sends/" + id, As("b")), 404, "BULK_SEND_NOT_FOUND",
                after);
  ExpectRefused(client_.Post("/api/v1/bulk-sends/" + id + "/cancel", "", As("b")), 404,
                "BULK_SEND_NOT_FOUND", after);
  auto listed = client_.Get("/api/v1/contracts?bulkSendId=" + id, As("b"));
  EXPECT_TRUE(listed.Json().at("items").as_array().empty());
}

}  // namespace
}  // namespace esign::testing
