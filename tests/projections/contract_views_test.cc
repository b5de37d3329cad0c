// ContractViews rows: the representations equal the domain's, grants appear at the right time,
// and the indexes follow status (void and expiry included) and participant changes without stale
// entries.
#include "projections/contract_views.h"

#include <gtest/gtest.h>

#include "base/time_text.h"
#include "contract_world.h"
#include "domain/contract.h"
#include "projections/contract_index.h"
#include "projections/contract_text_index.h"
#include "projections/rebuild.h"
#include "projections/status_row.h"
#include "projections/template_catalog.h"

namespace esign::projections {
namespace {

using Keys = std::vector<std::string>;

class ContractViewsTest : public ::testing::Test {
 protected:
  // The grant and status keys of a contract (the other secondary indexes are checked by the
  // list tests against a brute-force reference).
  Keys IndexKeys(const std::string& contract_id) {
    Keys keys;
    EXPECT_TRUE(
        world_.views().Scan("contracts/g", "", false, [&](std::string_view key, std::string_view) {
          const std::string_view tail = key.substr(10);
          if (key.ends_with("/" + contract_id) &&
              (tail.starts_with("g/") || tail.starts_with("gs/"))) {
            keys.emplace_back(key.substr(10));
          }
          return true;
        }));
    return keys;
  }
  std::optional<std::string> Row(const std::string& key) {
    auto row = world_.views().Get("contracts/" + key);
    EXPECT_TRUE(row);
    return row ? *row : std::nullopt;
  }
  IndexEntry Entry(const std::string& org, const std::string& contract_id) {
    auto row = Row(GrantKey(org, contract_id));
    EXPECT_TRUE(row);
    auto entry = DecodeIndexEntry(row.value_or(""));
    EXPECT_TRUE(entry);
    return entry.value_or(IndexEntry{});
  }
  // What a status read of `org` finds in the status row: the roles, as the grant's (0: none).
  uint8_t StatusRoles(const std::string& org, const std::string& contract_id) {
    const std::optional<std::string> row = Row("s/" + contract_id);
    EXPECT_TRUE(row);
    const std::optional<StatusRowRead> read = ReadStatusRow(row.value_or(""), org);
    EXPECT_TRUE(read);
    return read ? read->roles : 0;
  }

  testing::ContractWorld world_;
  const Actor a1_ = testing::Client("cli_a1", "org_a");
};

TEST_F(ContractViewsTest, RowsAreTheDomainRepresentations) {
  const std::string id = world_.script().Create(
      a1_, testing::ServicesBody("Rows", testing::Parties{}), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world_.script().RunJson(a1_, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  world_.Sync();
  auto state = world_.script().Load(id);
  ASSERT_TRUE(state);
  EXPECT_EQ(Row("c/" + id), boost::json::serialize(ContractToJson(*state)));
  const std::string status_row = Row("s/" + id).value_or("");
  const std::optional<StatusRowRead> read = ReadStatusRow(status_row, "org_a");
  ASSERT_TRUE(read) << status_row;
  EXPECT_EQ(read->version, state->version);
  EXPECT_EQ(read->roles, IndexEntry::Bit(AccessRole::kController));
  EXPECT_EQ(status_row.substr(read->json_offset),
            boost::json::serialize(ContractStatusToJson(*state)));
  for (uint64_t v = 1; v <= state->version; ++v) {
    EXPECT_TRUE(Row(AuditRowKey(id, v))) << v;
  }
  EXPECT_FALSE(Row(AuditRowKey(id, state->version + 1)));
}

TEST_F(ContractViewsTest, StatusIndexFollowsSendAndDecline) {
  const std::string id = world_.script().Create(
      a1_, testing::ServicesBody("Index", testing::Parties{}), "2026-01-01T10:00:00Z");
  world_.Sync();
  // A draft: only the controller holds a grant.
  EXPECT_EQ(IndexKeys(id), (Keys{"g/org_a/" + id, "gs/org_a/draft/" + id}));
  EXPECT_EQ(StatusRoles("org_a", id), Entry("org_a", id).roles);
  EXPECT_EQ(StatusRoles("org_b", id), 0);

  ASSERT_TRUE(world_.script().RunJson(a1_, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  world_.Sync();
  // Sent: the signer and the viewer organizations now read it; the draft entry is gone;
  // org_d (receive_copy) has nothing.
  EXPECT_EQ(IndexKeys(id),
            (Keys{"g/org_a/" + id, "g/org_b/" + id, "g/org_c/" + id, "gs/org_a/sent/" + id,
                  "gs/org_b/sent/" + id, "gs/org_c/sent/" + id}));
  IndexEntry viewer = Entry("org_b", id);
  EXPECT_TRUE(viewer.Has(AccessRole::kViewer));
  EXPECT_FALSE(viewer.Has(AccessRole::kController));
  EXPECT_TRUE(viewer.Has(ParticipantAction::kView));
  EXPECT_EQ(viewer.controller, "org_a");
  EXPECT_EQ(viewer.counterparties, (Keys{"org_a", "org_c", "org_d"}));
  EXPECT_EQ(Entry("org_a", id).counterparties, (Keys{"org_b", "org_c", "org_d"}));
  // The status row names exactly the grants, with their roles.
  for (const std::string org : {"org_a", "org_b", "org_c"}) {
    EXPECT_EQ(StatusRoles(org, id), Entry(org, id).roles) << org;
  }
  EXPECT_EQ(StatusRoles("org_d", id), 0);

  const std::string signer = world_.script().ParticipantId(id, "Provider org_c");
  ASSERT_TRUE(world_.script().Run(a1_, id, RecordSignerDeclined{signer, "not today"},
                                  "2026-01-03T10:00:00Z"));
  world_.Sync();
  EXPECT_EQ(IndexKeys(id),
            (Keys{"g/org_a/" + id, "g/org_b/" + id, "g/org_c/" + id, "gs/org_a/declined/" + id,
                  "gs/org_b/declined/" + id, "gs/org_c/declined/" + id}));
  IndexEntry declined = Entry("org_c", id);
  EXPECT_EQ(declined.status, ContractStatus::kDeclined);
  EXPECT_TRUE(declined.declined_at);
  EXPECT_EQ(declined.version, world_.script().Load(id)->version);
}

TEST_F(ContractViewsTest, IndexEntriesCarryTheDatesOfVoidAndExpiry) {
  const auto micros = [](std::string_view text) { return ParseTimestampMicros(text); };
  const std::string voided = world_.script().Create(
      a1_, testing::ServicesBody("Voided", testing::Parties{}), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world_.script().RunJson(a1_, voided, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  ASSERT_TRUE(world_.script().Run(a1_, voided, VoidContract{"sent by mistake", {}},
                                  "2026-01-03T10:00:00Z"));
  const std::string expired = world_.script().Create(
      a1_, testing::ServicesBody("Expired", testing::Parties{}), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world_.script().RunJson(a1_, expired, "SendContract",
                                      R"({"signingSettings": {"expiresInDays": 2}})",
                                      "2026-01-02T10:00:00Z"));
  ASSERT_TRUE(world_.script().Run(a1_, expired, RunDueTimers{}, "2026-01-05T10:00:00Z"));
  world_.Sync();

  EXPECT_EQ(IndexKeys(voided), (Keys{"g/org_a/" + voided, "g/org_b/" + voided, "g/org_c/" + voided,
                                     "gs/org_a/voided/" + voided, "gs/org_b/voided/" + voided,
                                     "gs/org_c/voided/" + voided}));
  const IndexEntry v = Entry("org_b", voided);
  EXPECT_EQ(v.status, ContractStatus::kVoided);
  EXPECT_EQ(v.voided_at, micros("2026-01-03T10:00:00Z"));
  EXPECT_EQ(v.expires_at, micros("2026-02-01T10:00:00Z"));  // the default 30 days, kept
  EXPECT_FALSE(v.expired_at);
  EXPECT_EQ(v.Date(DateField::kVoidedAt), v.voided_at);

  const IndexEntry e = Entry("org_a", expired);
  EXPECT_EQ(e.status, ContractStatus::kExpired);
  EXPECT_EQ(e.expires_at, micros("2026-01-04T10:00:00Z"));
  EXPECT_EQ(e.expired_at, micros("2026-01-05T10:00:00Z"));
  EXPECT_FALSE(e.voided_at);
  EXPECT_EQ(e.Date(DateField::kExpiresAt), e.expires_at);
  EXPECT_EQ(e.Date(DateField::kExpiredAt), e.expired_at);

  // The dates survive their encoding.
  auto decoded = DecodeIndexEntry(EncodeIndexEntry(e));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->expires_at, e.expires_at);
  EXPECT_EQ(decoded->expired_at, e.expired_at);
  EXPECT_EQ(EncodeIndexEntry(*decoded), EncodeIndexEntry(e));
}

TEST_F(ContractViewsTest, ReplacedParticipantsMoveGrantsAndSearchText) {
  const std::string id = world_.script().Create(
      a1_, testing::ServicesBody("Moves", testing::Parties{}), "2026-01-01T10:00:00Z");
  const std::string body = R"({"participants": [
      {"name": "Nina New", "email": "nina@new.example", "action": "sign",
       "recipientType": "individual", "executionChannel": "platform_hosted",
       "templateRoleId": "client_signatory"},
      {"name": "Provider G", "organizationId": "org_g", "action": "sign",
       "recipientType": "organization", "executionChannel": "provider_managed",
       "templateRoleId": "provider_company"},
      {"name": "Viewer H", "organizationId": "org_h", "action": "view",
       "recipientType": "organization"}]})";
  ASSERT_TRUE(
      world_.script().RunJson(a1_, id, "ReplaceParticipants", body, "2026-01-01T11:00:00Z"));
  world_.Sync();
  EXPECT_EQ(Entry("org_a", id).counterparties, (Keys{"org_g", "org_h"}));
  EXPECT_NE(Entry("org_a", id).text.find("nina@new.example"), std::string::npos);
  EXPECT_EQ(Entry("org_a", id).text.find("client@c.example"), std::string::npos);

  ASSERT_TRUE(world_.script().RunJson(a1_, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  world_.Sync();
  EXPECT_EQ(IndexKeys(id),
            (Keys{"g/org_a/" + id, "g/org_g/" + id, "g/org_h/" + id, "gs/org_a/sent/" + id,
                  "gs/org_g/sent/" + id, "gs/org_h/sent/" + id}));
  auto old_viewer = world_.queries().Get({"cli_b", "org_b"}, id);
  ASSERT_FALSE(old_viewer);
  EXPECT_EQ(old_viewer.error().code, ErrorCode::kContractNotFound);
  EXPECT_TRUE(world_.queries().Get({"cli_h", "org_h"}, id));
}

TEST_F(ContractViewsTest, AnOrganizationIdCannotReachIntoAnothersKeys) {
  testing::Parties parties;
  parties.viewer_org = "org_b/x";  // escaped in keys: no row under "g/org_b/"
  const std::string id =
      world_.script().Create(a1_, testing::ServicesBody("Slash", parties), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world_.script().RunJson(a1_, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  world_.Sync();
  EXPECT_TRUE(world_.queries().Get({"cli", "org_b/x"}, id));
  EXPECT_FALSE(world_.queries().Get({"cli", "org_b"}, id));
  ListQuery query;
  auto page = world_.queries().List({"cli", "org_b"}, query);
  ASSERT_TRUE(page);
  EXPECT_TRUE(page->items.empty());
  auto slashed = world_.queries().List({"cli", "org_b/x"}, query);
  ASSERT_TRUE(slashed);
  EXPECT_EQ(slashed->items.size(), 1u);
}

TEST(ContractViewsCacheTest, ReplayingFromTheLogGivesTheSameRowsAsTheCache) {
  testing::ContractWorld world;
  const Actor a1 = testing::Client("cli_a1", "org_a");
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back(world.script().Create(a1, testing::ServicesBody("C", testing::Parties{}),
                                        "2026-01-01T10:00:0" + std::to_string(i) + "Z"));
  }
  for (const auto& id : ids) {
    ASSERT_TRUE(world.script().RunJson(a1, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  }
  const std::string signer = world.script().ParticipantId(ids[1], "Clara Client");
  ASSERT_TRUE(world.script().Run(a1, ids[1], RecordSignerCompleted{signer, "", {}},
                                 "2026-01-03T10:00:00Z"));
  world.Sync();
  // One event per batch and one cached state: nearly every event replays its contract's stream
  // from the log instead of continuing a cached state.
  MemoryViewStore rebuilt;
  ContractViews contracts(world.store(), ContractViewsOptions{.max_cached_states = 1});
  ContractTextIndex text_index(world.store(), /*max_cached_states=*/1);
  TemplateCatalog catalog;
  ASSERT_TRUE(Rebuild(world.store(), {&catalog, &contracts, &text_index}, rebuilt, 1));
  auto difference = FirstDifference(world.views(), rebuilt);
  ASSERT_TRUE(difference);
  EXPECT_EQ(*difference, std::nullopt) << **difference;
}

}  // namespace
}  // namespace esign::projections
