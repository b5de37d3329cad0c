// ParseListQuery: defaults, every parameter and value, and invalid values naming the parameter.
#include "projections/list_query.h"

#include <gtest/gtest.h>

#include "projections/text_fold.h"

namespace esign::projections {
namespace {

std::vector<std::string> Fields(const Error& error) {
  std::vector<std::string> fields;
  for (const auto& detail : error.details) fields.push_back(detail.field);
  return fields;
}

TEST(ListQueryTest, Defaults) {
  auto query = ParseListQuery(QueryParams{});
  ASSERT_TRUE(query);
  EXPECT_EQ(query->scope, ListScope::kReadable);
  EXPECT_EQ(query->limit, 50u);
  EXPECT_EQ(query->date_field, DateField::kCreatedAt);
  EXPECT_FALSE(query->status);
  EXPECT_FALSE(query->from_us);
  EXPECT_FALSE(query->cursor);
}

TEST(ListQueryTest, EveryParameter) {
  auto query = ParseListQuery(QueryParams{{"scope", "shared_with_me"},
                                          {"status", "completed"},
                                          {"dateField", "completedAt"},
                                          {"from", "2026-01-01T00:00:00Z"},
                                          {"to", "2026-02-01"},
                                          {"organizationId", "org_a"},
                                          {"counterpartyOrganizationId", "org_c"},
                                          {"participantAction", "view"},
                                          {"accessRole", "viewer"},
                                          {"q", "Alpha SERVICES"},
                                          {"limit", "200"},
                                          {"cursor", "abc"}});
  ASSERT_TRUE(query) << query.error().message;
  EXPECT_EQ(query->scope, ListScope::kSharedWithMe);
  EXPECT_EQ(query->status, ContractStatus::kCompleted);
  EXPECT_EQ(query->date_field, DateField::kCompletedAt);
  EXPECT_EQ(query->from_us, int64_t{1767225600} * 1'000'000);
  EXPECT_EQ(query->to_us, int64_t{1769904000} * 1'000'000);
  EXPECT_EQ(query->organization_id, "org_a");
  EXPECT_EQ(query->counterparty_organization_id, "org_c");
  EXPECT_EQ(query->participant_action, ParticipantAction::kView);
  EXPECT_EQ(query->access_role, AccessRole::kViewer);
  EXPECT_EQ(query->q, "alpha services");
  EXPECT_EQ(query->limit, 200u);
  EXPECT_EQ(query->cursor, "abc");
}

TEST(ListQueryTest, EveryScopeAndStatus) {
  for (const auto& [text, scope] :
       std::vector<std::pair<std::string, ListScope>>{{"owned", ListScope::kOwned},
                                                      {"organization", ListScope::kOrganization},
                                                      {"shared_with_me", ListScope::kSharedWithMe},
                                                      {"readable", ListScope::kReadable}}) {
    auto query = ParseListQuery(QueryParams{{"scope", text}});
    ASSERT_TRUE(query) << text;
    EXPECT_EQ(query->scope, scope);
  }
  for (const char* status :
       {"draft", "sent", "signing", "completed", "declined", "voided", "expired"}) {
    auto query = ParseListQuery(QueryParams{{"status", status}});
    ASSERT_TRUE(query) << status;
    EXPECT_EQ(ToString(*query->status), status);
  }
}

TEST(ListQueryTest, EveryDateField) {
  for (const char* field : {"createdAt", "updatedAt", "sentAt", "completedAt", "declinedAt",
                            "voidedAt", "expiredAt", "expiresAt"}) {
    auto query = ParseListQuery(QueryParams{{"dateField", field}});
    ASSERT_TRUE(query) << field;
    EXPECT_EQ(ToString(query->date_field), field);
  }
}

TEST(ListQueryTest, RefusalsListTheAcceptedValues) {
  auto query = ParseListQuery(QueryParams{{"status", "archived"}, {"dateField", "signedAt"}});
  ASSERT_FALSE(query);
  ASSERT_EQ(query.error().details.size(), 2u);
  EXPECT_EQ(query.error().details[0].issue,
            "must be one of draft, sent, signing, completed, declined, voided, expired");
  EXPECT_EQ(query.error().details[1].issue,
            "must be one of createdAt, updatedAt, sentAt, completedAt, declinedAt, voidedAt, "
            "expiredAt, expiresAt");
}

TEST(ListQueryTest, EmptyValuesCountAsAbsent) {
  auto query = ParseListQuery(QueryParams{{"status", ""}, {"limit", ""}, {"q", ""}});
  ASSERT_TRUE(query);
  EXPECT_FALSE(query->status);
  EXPECT_EQ(query->limit, 50u);
  EXPECT_FALSE(query->q);
}

struct BadValue {
  const char* name;
  const char* value;
};

class ListQueryBadValueTest : public ::testing::TestWithParam<BadValue> {};

TEST_P(ListQueryBadValueTest, NamesTheParameter) {
  auto query = ParseListQuery(QueryParams{{GetParam().name, GetParam().value}});
  ASSERT_FALSE(query);
  EXPECT_EQ(query.error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(Fields(query.error()), std::vector<std::string>{GetParam().name});
}

INSTANTIATE_TEST_SUITE_P(
    Values, ListQueryBadValueTest,
    ::testing::Values(BadValue{"limit", "0"}, BadValue{"limit", "201"}, BadValue{"limit", "-1"},
                      BadValue{"limit", "ten"}, BadValue{"limit", "10.5"},
                      BadValue{"limit", "99999999999999999999999"}, BadValue{"scope", "mine"},
                      BadValue{"status", "SENT"}, BadValue{"status", "archived"},
                      BadValue{"dateField", "signedAt"}, BadValue{"from", "yesterday"},
                      BadValue{"to", "2026-01-15T10:00:00"}, BadValue{"participantAction", "sign_"},
                      BadValue{"accessRole", "owner"}, BadValue{"q", "line\nbreak"},
                      BadValue{"organizationId", "bad\x01id"}, BadValue{"color", "blue"}),
    [](const ::testing::TestParamInfo<BadValue>& info) {
      return std::string(info.param.name) + "_" + std::to_string(info.index);
    });

TEST(ListQueryTest, EveryProblemIsReportedAtOnce) {
  auto query = ParseListQuery(QueryParams{{"limit", "0"}, {"status", "x"}, {"from", "x"}});
  ASSERT_FALSE(query);
  EXPECT_EQ(Fields(query.error()), (std::vector<std::string>{"status", "from", "limit"}));
}

TEST(ListQueryTest, RangeMustNotBeEmpty) {
  auto query =
      ParseListQuery(QueryParams{{"from", "2026-02-01T00:00:00Z"}, {"to", "2026-01-01T00:00:00Z"}});
  ASSERT_FALSE(query);
  EXPECT_EQ(Fields(query.error()), std::vector<std::string>{"to"});
}

TEST(ListQueryTest, RepeatedParameterIsRefused) {
  auto query = ParseListQuery(
      std::vector<std::pair<std::string, std::string>>{{"status", "sent"}, {"status", "draft"}});
  ASSERT_FALSE(query);
  EXPECT_EQ(Fields(query.error()), std::vector<std::string>{"status"});
  auto single =
      ParseListQuery(std::vector<std::pair<std::string, std::string>>{{"status", "sent"}});
  ASSERT_TRUE(single);
}

TEST(ListQueryTest, FingerprintCoversFiltersNotPaging) {
  ListQuery a;
  ListQuery b = a;
  b.limit = 7;
  b.cursor = "x";
  EXPECT_EQ(QueryFingerprint("cli", "org", a), QueryFingerprint("cli", "org", b));
  b.q = "x";
  EXPECT_NE(QueryFingerprint("cli", "org", a), QueryFingerprint("cli", "org", b));
  EXPECT_NE(QueryFingerprint("cli", "org", a), QueryFingerprint("cli2", "org", a));
  EXPECT_NE(QueryFingerprint("cli", "org", a), QueryFingerprint("cli", "org2", a));
  ListQuery c = a;
  c.contract_id = "ctr_A";
  ListQuery d = a;
  d.contract_id = "ctr_B";
  EXPECT_NE(QueryFingerprint("cli", "org", c), QueryFingerprint("cli", "org", d));
  EXPECT_NE(QueryFingerprint("cli", "org", a), QueryFingerprint("cli", "org", c));
}

// A q that is a contract id asks for that contract; anything else is text.
TEST(ListQueryTest, AQThatIsAContractIdNamesIt) {
  Result<ListQuery> id = ParseListQuery(QueryParams{{"q", "ctr_01jd3v7q2k8m4zb6x9t0hcrw5n"}});
  ASSERT_TRUE(id);
  EXPECT_EQ(id->contract_id, "ctr_01JD3V7Q2K8M4ZB6X9T0HCRW5N");
  EXPECT_FALSE(id->q);
  Result<ListQuery> upper = ParseListQuery(QueryParams{{"q", "CTR_01JD3V7Q2K8M4ZB6X9T0HCRW5N"}});
  ASSERT_TRUE(upper);
  EXPECT_EQ(upper->contract_id, "ctr_01JD3V7Q2K8M4ZB6X9T0HCRW5N");

  EXPECT_EQ(ContractIdOfSearch("ctr_000004"), "ctr_000004");
  EXPECT_EQ(ContractIdOfSearch("ctr_a_b9"), "ctr_A_B9");
  for (const std::string text : {"ctr_", "ctr", "ctr_ab c", "xctr_ab", "ctr_\xC3\xA4", "ctr_ab-c",
                                 "01jd3v7q2k8m4zb6x9t0hcrw5n", "nda ctr_ab"}) {
    EXPECT_EQ(ContractIdOfSearch(text), std::nullopt) << text;
    Result<ListQuery> query = ParseListQuery(QueryParams{{"q", text}});
    ASSERT_TRUE(query) << text;
    EXPECT_FALSE(query->contract_id) << text;
    EXPECT_EQ(query->q, FoldText(text)) << text;
  }
}

}  // namespace
}  // namespace esign::projections
