#include "domain/bulk_send.h"

#include <gtest/gtest.h>

#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/template_importer.h"
#include "test_files.h"

namespace esign {
namespace {

using boost::json::object;
using boost::json::parse;

Template ExampleNda() {
  auto imported =
      ImportTemplateText(testing::ReadFile(testing::ExampleTemplatePath("mutual-nda.json")));
  EXPECT_TRUE(imported) << (imported ? "" : imported.error().message);
  return imported ? *imported : Template{};
}

std::vector<std::string> Fields(const Result<BulkSendRequest>& request) {
  std::vector<std::string> fields;
  if (!request) {
    for (const auto& detail : request.error().details) fields.push_back(detail.field);
  }
  return fields;
}

TEST(BulkSendRequestTest, ReadsTheJobAndChecksTheShapeOfEveryRow) {
  auto request = ReadBulkSendRequest(parse(R"({"templateId":"tpl_mutual_nda","title":"NDA",
    "signingSettings":{"expiresInDays":30},"rows":[{"participants":[],"data":{}}]})")
                                         .as_object());
  ASSERT_TRUE(request);
  EXPECT_EQ(request->template_id, "tpl_mutual_nda");
  EXPECT_EQ(request->title, "NDA");
  EXPECT_TRUE(request->signing_settings.has_value());
  EXPECT_EQ(request->rows.size(), 1u);

  EXPECT_EQ(Fields(ReadBulkSendRequest(parse(R"({"rows":[]})").as_object())),
            (std::vector<std::string>{"templateId", "rows"}));
  EXPECT_EQ(Fields(ReadBulkSendRequest(
                parse(R"({"templateId":"t","rows":[1,{"data":2},{"participants":[],"x":1}],"y":0})")
                    .as_object())),
            (std::vector<std::string>{"y", "rows[0]", "rows[1].participants", "rows[1].data",
                                      "rows[2].x"}));
  boost::json::array many(kMaxBulkSendRows + 1, object{{"participants", boost::json::array{}}});
  EXPECT_EQ(Fields(ReadBulkSendRequest(object{{"templateId", "t"}, {"rows", many}})),
            (std::vector<std::string>{"rows"}));
  // 10,000 bad rows answer a bounded list of problems.
  boost::json::array bad(kMaxBulkSendRows, boost::json::value(1));
  EXPECT_LE(Fields(ReadBulkSendRequest(object{{"templateId", "t"}, {"rows", bad}})).size(), 20u);
}

TEST(BulkSendCsvTest, ColumnsBecomeDataParticipantsAndTitle) {
  const Template nda = ExampleNda();
  auto table = ParseCsv(
      "title,partyAName,terms.termMonths,confidentialityYears,party_a_signatory.name,"
      "party_a_signatory.email,legal_copy.email\n"
      "One,Acme,24,5,Ada,ada@acme.example,\n"
      "Two,Initech,twelve,,Peter,peter@initech.example,archive@acme.example\n");
  ASSERT_TRUE(table);
  auto rows = RowsFromCsv(*table, *nda.PublishedVersion());
  ASSERT_TRUE(rows) << rows.error().details.front().issue;
  ASSERT_EQ(rows->size(), 2u);
  const auto& first = rows->at(0).as_object();
  EXPECT_EQ(first.at("title"), "One");
  EXPECT_EQ(first.at("data").at("parties").at("partyAName"), "Acme");
  EXPECT_EQ(first.at("data").at("terms").at("termMonths"), 24);  // an integer field: a number
  EXPECT_EQ(first.at("data").at("terms").at("confidentialityYears"), 5);
  const auto& participants = first.at("participants").as_array();
  ASSERT_EQ(participants.size(), 1u);
  EXPECT_EQ(participants[0].at("templateRoleId"), "party_a_signatory");
  EXPECT_EQ(participants[0].at("action"), "sign");
  EXPECT_EQ(participants[0].at("executionChannel"), "platform_hosted");
  EXPECT_EQ(participants[0].at("email"), "ada@acme.example");
  const auto& second = rows->at(1).as_object();
  // Not an integer: left as text for the contract's own check to refuse.
  EXPECT_EQ(second.at("data").at("terms").at("termMonths"), "twelve");
  EXPECT_FALSE(second.at("data").at("terms").as_object().contains("confidentialityYears"));
  ASSERT_EQ(second.at("participants").as_array().size(), 2u);
  EXPECT_EQ(second.at("participants").at(1).at("action"), "receive_copy");
  EXPECT_FALSE(second.at("participants").at(1).as_object().contains("executionChannel"));
}

TEST(BulkSendCsvTest, AColumnOfNothingIsRefused) {
  const Template nda = ExampleNda();
  for (const char* header : {"nope", "terms.nope", "party_a_signatory.phone", "nobody.name"}) {
    auto table = ParseCsv(std::string(header) + "\nx\n");
    ASSERT_TRUE(table);
    auto rows = RowsFromCsv(*table, *nda.PublishedVersion());
    ASSERT_FALSE(rows) << header;
    EXPECT_EQ(rows.error().details.front().field, "csv");
  }
}

TEST(BulkSendRowTest, TheContractRequestOfARow) {
  BulkSendRequest job{.template_id = "tpl_mutual_nda", .title = "", .signing_settings = object{}};
  const object row = parse(R"({"data":{"a":1},"participants":[]})").as_object();
  object request = ContractRequestOfRow(job, row, "Mutual NDA");
  EXPECT_EQ(request.at("title"), "Mutual NDA");
  EXPECT_EQ(request.at("sendNow"), true);
  EXPECT_EQ(request.at("templateId"), "tpl_mutual_nda");
  EXPECT_TRUE(request.contains("signingSettings"));
  EXPECT_FALSE(request.contains("notifications"));
  job.title = "Job title";
  EXPECT_EQ(ContractRequestOfRow(job, row, "Mutual NDA").at("title"), "Job title");
  const object titled = parse(R"({"title":"Row title","participants":[]})").as_object();
  EXPECT_EQ(ContractRequestOfRow(job, titled, "Mutual NDA").at("title"), "Row title");
  EXPECT_EQ(BulkRowIdempotencyKey("bsd_1", 42), "bulk:bsd_1:42");
}

TEST(BulkSendFoldTest, EventsMakeTheJobAndItsRows) {
  BulkSend job;
  ApplyBulkSendEvent(
      job, event_type::kBulkSendCreated,
      event_codec::WriteData(BulkSendCreatedData{.bulk_send_id = "bsd_1",
                                                 .organization_id = "org",
                                                 .client_id = "cli",
                                                 .permissions = {"contracts:create"},
                                                 .request_sha256 = "h",
                                                 .template_id = "tpl",
                                                 .title = "",
                                                 .signing_settings = std::nullopt,
                                                 .notifications = std::nullopt,
                                                 .row_count = 3,
                                                 .rows_sha256 = "r",
                                                 .created_at = "2026-11-28T10:00:00Z"}));
  ApplyBulkSendEvent(
      job, event_type::kBulkSendProgressed,
      parse(R"({"bulkSendId":"bsd_1","organizationId":"org","processed":2,"sent":1,"failed":1,
        "rows":[{"row":0,"contractId":"ctr_1"},{"row":1,"error":{"code":"VALIDATION_FAILED",
        "message":"m","details":[{"field":"data","issue":"i"}]}}],"progressedAt":"t"})")
          .as_object());
  EXPECT_EQ(job.state, BulkSendState::kRunning);
  EXPECT_EQ(BulkRowToJson(job, 0).at("contractId"), "ctr_1");
  EXPECT_EQ(BulkRowToJson(job, 1).at("error").at("code"), "VALIDATION_FAILED");
  EXPECT_EQ(BulkRowToJson(job, 2).at("state"), "pending");
  EXPECT_EQ(BulkSendToJson(job).at("counts"),
            parse(R"({"pending":1,"sent":1,"failed":1,"notSent":0})"));
  ApplyBulkSendEvent(
      job, event_type::kBulkSendCancelled,
      parse(R"({"bulkSendId":"bsd_1","organizationId":"org","cancelledAt":"c"})").as_object());
  EXPECT_EQ(job.state, BulkSendState::kCancelling);
  ApplyBulkSendEvent(job, event_type::kBulkSendCompleted,
                     parse(R"({"bulkSendId":"bsd_1","organizationId":"org","state":"cancelled",
                       "rowCount":3,"sent":1,"failed":1,"notSent":1,"completedAt":"e"})")
                         .as_object());
  EXPECT_EQ(job.state, BulkSendState::kCancelled);
  EXPECT_EQ(BulkRowToJson(job, 2).at("state"), "not_sent");
  EXPECT_EQ(BulkSendToJson(job).at("counts"),
            parse(R"({"pending":0,"sent":1,"failed":1,"notSent":1})"));
  EXPECT_EQ(job.version, 4u);
}

}  // namespace
}  // namespace esign
