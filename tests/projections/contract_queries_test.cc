// ContractQueries over a scripted world of organizations:
//   org_a controls c1 (sent), c2 (draft, by another client of org_a), c3 (declined), c5
//   (completed) and c6 (signing); org_e controls c4 (sent).
//   org_b views every contract of org_a and c4; org_c signs for the provider in org_a's
//   contracts; org_d only receives copies of org_a's contracts; org_f signs c4.
// Every scope and filter is checked against what each organization may read.
#include "projections/contract_queries.h"

#include <gtest/gtest.h>

#include "base/hex.h"
#include "base/time_text.h"
#include "contract_world.h"
#include "eventstore/merkle.h"

namespace esign::projections {
namespace {

using Ids = std::vector<std::string>;

const QueryActor kA1{"cli_a1", "org_a"};
const QueryActor kA2{"cli_a2", "org_a"};
const QueryActor kB{"cli_b", "org_b"};
const QueryActor kC{"cli_c", "org_c"};
const QueryActor kD{"cli_d", "org_d"};
const QueryActor kE{"cli_e", "org_e"};
const QueryActor kF{"cli_f", "org_f"};

class ContractQueriesTest : public ::testing::Test {
 protected:
  // Who may not read what: another organization's contract, a draft of the controller's own
  // organization for a viewer, unknown and malformed ids, a caller without an organization.
  static std::vector<std::pair<QueryActor, std::string>> NotReadable() {
    return {{kD, c1_},
            {kB, c2_},
            {kA1, c4_},
            {kA1, "ctr_999999"},
            {kA1, ""},
            {QueryActor{"cli_x", ""}, c1_},
            {kA1, "ctr_000001/../x"}};
  }
  static void SetUpTestSuite() {
    world_ = new testing::ContractWorld();
    testing::ContractScript& script = world_->script();
    const Actor a1 = testing::Client("cli_a1", "org_a");
    const Actor a2 = testing::Client("cli_a2", "org_a");
    const Actor e = testing::Client("cli_e", "org_e");
    const testing::Parties parties;

    c1_ =
        script.Create(a1, testing::ServicesBody("Alpha services", parties), "2026-01-01T10:00:00Z");
    Send(a1, c1_, "2026-01-02T10:00:00Z");
    c2_ = script.Create(a2, testing::ServicesBody("Beta draft", parties), "2026-01-03T10:00:00Z");
    testing::Parties gamma = parties;
    gamma.signer_email = "gina@gamma.example";
    gamma.signer_name = "Gina Gamma";
    c3_ = script.Create(a1, testing::ServicesBody("Gamma declined", gamma), "2026-01-04T10:00:00Z");
    Send(a1, c3_, "2026-01-05T10:00:00Z");
    ASSERT_TRUE(script.Run(a1, c3_,
                           RecordSignerDeclined{script.ParticipantId(c3_, "Gina Gamma"), "no"},
                           "2026-01-06T10:00:00Z"));
    testing::Parties echo;
    echo.signer_org = "org_f";
    echo.viewer_org = "org_b";
    echo.copy_org = "";
    c4_ = script.Create(e, testing::ServicesBody("Echo shared", echo), "2026-01-07T10:00:00Z");
    Send(e, c4_, "2026-01-08T10:00:00Z");
    c5_ = script.Create(a1, testing::ServicesBody("Delta completed", parties),
                        "2026-01-09T10:00:00Z");
    Send(a1, c5_, "2026-01-10T10:00:00Z");
    Sign(a1, c5_, "Clara Client", "2026-01-11T10:00:00Z");
    Sign(a1, c5_, "Provider org_c", "2026-01-12T10:00:00Z");
    ASSERT_TRUE(script.Run(a1, c5_, CompleteContract{"signed/c5.pdf", ""}, "2026-01-13T10:00:00Z"));
    c6_ = script.Create(a1, testing::ServicesBody("Foxtrot signing", parties),
                        "2026-01-14T10:00:00Z");
    Send(a1, c6_, "2026-01-15T10:00:00Z");
    Sign(a1, c6_, "Clara Client", "2026-01-16T10:00:00Z");
    world_->Sync();
  }
  static void TearDownTestSuite() {
    delete world_;
    world_ = nullptr;
  }

  static void Send(const Actor& actor, const std::string& id, const std::string& now) {
    ASSERT_TRUE(world_->script().RunJson(actor, id, "SendContract", "{}", now));
  }
  static void Sign(const Actor& actor, const std::string& id, const std::string& name,
                   const std::string& now) {
    const std::string participant = world_->script().ParticipantId(id, name);
    ASSERT_FALSE(participant.empty()) << name;
    ASSERT_TRUE(world_->script().Run(actor, id, RecordSignerCompleted{participant, now, {}}, now));
  }

  static Result<ContractPage> List(const QueryActor& actor, const QueryParams& params) {
    Result<ListQuery> query = ParseListQuery(params);
    if (!query) return Fail(query.error());
    return world_->queries().List(actor, *query);
  }

  // The ids of one page.
  static Ids Page(const QueryActor& actor, const QueryParams& params) {
    Result<ContractPage> page = List(actor, params);
    EXPECT_TRUE(page) << page.error().message;
    Ids ids;
    if (page) {
      for (const auto& item : page->items) ids.push_back(item.id);
    }
    return ids;
  }

  // The ids of every page, following the cursors.
  static Ids All(const QueryActor& actor, QueryParams params) {
    Ids ids;
    for (int pages = 0; pages < 100; ++pages) {
      Result<ContractPage> page = List(actor, params);
      EXPECT_TRUE(page) << page.error().message;
      if (!page) break;
      for (const auto& item : page->items) ids.push_back(item.id);
      if (!page->next_cursor) break;
      params["cursor"] = *page->next_cursor;
    }
    return ids;
  }

  static inline testing::ContractWorld* world_ = nullptr;
  static inline std::string c1_, c2_, c3_, c4_, c5_, c6_;
};

TEST_F(ContractQueriesTest, ReadableScopeIsEveryGrant) {
  EXPECT_EQ(Page(kA1, {}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(Page(kA1, {{"scope", "readable"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  // The viewer sees what was sent to it, not org_a's draft.
  EXPECT_EQ(Page(kB, {}), (Ids{c6_, c5_, c4_, c3_, c1_}));
  EXPECT_EQ(Page(kC, {}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kE, {}), (Ids{c4_}));
  EXPECT_EQ(Page(kF, {}), (Ids{c4_}));
}

TEST_F(ContractQueriesTest, ReceiveCopyGrantsNothing) {
  EXPECT_EQ(Page(kD, {}), Ids{});
  EXPECT_EQ(Page(kD, {{"participantAction", "receive_copy"}}), Ids{});
  EXPECT_EQ(Page(kD, {{"counterpartyOrganizationId", "org_a"}}), Ids{});
  auto got = world_->queries().Get(kD, c1_);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code, ErrorCode::kContractNotFound);
}

TEST_F(ContractQueriesTest, OwnedScopeIsTheClientsOwnContracts) {
  EXPECT_EQ(Page(kA1, {{"scope", "owned"}}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kA2, {{"scope", "owned"}}), (Ids{c2_}));
  EXPECT_EQ(Page(kB, {{"scope", "owned"}}), Ids{});
}

TEST_F(ContractQueriesTest, OrganizationScopeIsControl) {
  EXPECT_EQ(Page(kA2, {{"scope", "organization"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(Page(kB, {{"scope", "organization"}}), Ids{});
  EXPECT_EQ(Page(kE, {{"scope", "organization"}}), (Ids{c4_}));
}

TEST_F(ContractQueriesTest, SharedWithMeIsAViewerGrant) {
  EXPECT_EQ(Page(kB, {{"scope", "shared_with_me"}}), (Ids{c6_, c5_, c4_, c3_, c1_}));
  EXPECT_EQ(Page(kC, {{"scope", "shared_with_me"}}), Ids{});
  EXPECT_EQ(Page(kA1, {{"scope", "shared_with_me"}}), Ids{});
}

TEST_F(ContractQueriesTest, StatusFilter) {
  EXPECT_EQ(Page(kA1, {{"status", "draft"}}), (Ids{c2_}));
  EXPECT_EQ(Page(kA1, {{"status", "sent"}}), (Ids{c1_}));
  EXPECT_EQ(Page(kA1, {{"status", "signing"}}), (Ids{c6_}));
  EXPECT_EQ(Page(kA1, {{"status", "completed"}}), (Ids{c5_}));
  EXPECT_EQ(Page(kA1, {{"status", "declined"}}), (Ids{c3_}));
  EXPECT_EQ(Page(kB, {{"status", "sent"}}), (Ids{c4_, c1_}));
  EXPECT_EQ(Page(kB, {{"status", "draft"}}), Ids{});  // the filter cannot reach org_a's draft
  EXPECT_EQ(Page(kA1, {{"status", "sent"}, {"scope", "owned"}}), (Ids{c1_}));
}

TEST_F(ContractQueriesTest, DateFilters) {
  // createdAt by default; from inclusive, to exclusive.
  EXPECT_EQ(Page(kA1, {{"from", "2026-01-03T10:00:00Z"}, {"to", "2026-01-04T10:00:00Z"}}),
            (Ids{c2_}));
  EXPECT_EQ(Page(kA1, {{"from", "2026-01-03T10:00:00.000001Z"}}), (Ids{c6_, c5_, c3_}));
  EXPECT_EQ(Page(kA1, {{"to", "2026-01-03"}}), (Ids{c1_}));
  // Another offset, the same instant.
  EXPECT_EQ(Page(kA1, {{"from", "2026-01-03T11:00:00+01:00"}, {"to", "2026-01-04"}}), (Ids{c2_}));
  EXPECT_EQ(Page(kA1, {{"dateField", "sentAt"},
                       {"from", "2026-01-05T00:00:00Z"},
                       {"to", "2026-01-11T00:00:00Z"}}),
            (Ids{c5_, c3_}));
  // Contracts that never got there do not match a range on that date.
  EXPECT_EQ(Page(kA1, {{"dateField", "completedAt"}, {"from", "2000-01-01"}}), (Ids{c5_}));
  EXPECT_EQ(Page(kA1, {{"dateField", "declinedAt"}, {"from", "2000-01-01"}}), (Ids{c3_}));
  EXPECT_EQ(Page(kA1, {{"dateField", "updatedAt"}, {"from", "2026-01-14T00:00:00Z"}}), (Ids{c6_}));
  // A date field alone selects nothing out.
  EXPECT_EQ(Page(kA1, {{"dateField", "completedAt"}}).size(), 5u);
  EXPECT_EQ(Page(kB, {{"dateField", "sentAt"}, {"from", "2026-01-08"}, {"to", "2026-01-09"}}),
            (Ids{c4_}));
}

TEST_F(ContractQueriesTest, OrganizationFilterIsTheController) {
  EXPECT_EQ(Page(kB, {{"organizationId", "org_a"}}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kB, {{"organizationId", "org_e"}}), (Ids{c4_}));
  // Naming another organization never reaches its contracts.
  EXPECT_EQ(Page(kA1, {{"organizationId", "org_e"}}), Ids{});
  EXPECT_EQ(Page(kD, {{"organizationId", "org_a"}}), Ids{});
}

TEST_F(ContractQueriesTest, CounterpartyFilterIsAnotherOrganizationInvolved) {
  EXPECT_EQ(Page(kA1, {{"counterpartyOrganizationId", "org_c"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(Page(kA1, {{"counterpartyOrganizationId", "org_d"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(Page(kA1, {{"counterpartyOrganizationId", "org_f"}}), Ids{});
  EXPECT_EQ(Page(kB, {{"counterpartyOrganizationId", "org_a"}}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kB, {{"counterpartyOrganizationId", "org_f"}}), (Ids{c4_}));
  EXPECT_EQ(Page(kB, {{"counterpartyOrganizationId", "org_e"}}), (Ids{c4_}));
  EXPECT_EQ(Page(kB, {{"counterpartyOrganizationId", "org_b"}}), Ids{});  // not its own
}

TEST_F(ContractQueriesTest, ParticipantActionIsTheActorsOwn) {
  EXPECT_EQ(Page(kB, {{"participantAction", "view"}}), (Ids{c6_, c5_, c4_, c3_, c1_}));
  EXPECT_EQ(Page(kB, {{"participantAction", "sign"}}), Ids{});
  EXPECT_EQ(Page(kC, {{"participantAction", "sign"}}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kA1, {{"participantAction", "sign"}}), Ids{});
}

TEST_F(ContractQueriesTest, AccessRoleIsTheActorsRelation) {
  EXPECT_EQ(Page(kA1, {{"accessRole", "controller"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(Page(kB, {{"accessRole", "controller"}}), Ids{});
  EXPECT_EQ(Page(kB, {{"accessRole", "viewer"}}), (Ids{c6_, c5_, c4_, c3_, c1_}));
  EXPECT_EQ(Page(kC, {{"accessRole", "signer"}}), (Ids{c6_, c5_, c3_, c1_}));
  EXPECT_EQ(Page(kC, {{"accessRole", "viewer"}}), Ids{});
  EXPECT_EQ(Page(kF, {{"accessRole", "signer"}, {"scope", "shared_with_me"}}), Ids{});
}

TEST_F(ContractQueriesTest, FreeTextSearch) {
  EXPECT_EQ(Page(kA1, {{"q", "alpha"}}), (Ids{c1_}));
  EXPECT_EQ(Page(kA1, {{"q", "ALPHA Serv"}}), (Ids{c1_}));
  EXPECT_EQ(Page(kA1, {{"q", "gamma.example"}}), (Ids{c3_}));  // a participant's e-mail
  EXPECT_EQ(Page(kA1, {{"q", "provider org_c"}}).size(), 5u);  // a participant's name
  EXPECT_EQ(Page(kA1, {{"q", "nothing like it"}}), Ids{});
}

// A q that is a contract id finds that contract through its grant, whole, in any case, and only
// when the other filters and the reader's grants let it; a piece of an id finds nothing.
TEST_F(ContractQueriesTest, AContractIdAsQFindsThatContract) {
  std::string upper = c4_;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(Page(kB, {{"q", c4_}}), (Ids{c4_}));
  EXPECT_EQ(Page(kB, {{"q", upper}}), (Ids{c4_}));
  EXPECT_EQ(Page(kA1, {{"q", c4_}}), Ids{});  // it exists, but org_a1 may not read it
  EXPECT_EQ(Page(kB, {{"q", c4_}, {"status", "sent"}}), (Ids{c4_}));
  EXPECT_EQ(Page(kB, {{"q", c4_}, {"status", "draft"}}), Ids{});
  EXPECT_EQ(Page(kB, {{"q", c4_}, {"accessRole", "controller"}}), Ids{});
  EXPECT_EQ(Page(kB, {{"q", c4_},
                      {"dateField", "createdAt"},
                      {"from", "2026-01-07T00:00:00Z"},
                      {"to", "2026-01-08T00:00:00Z"}}),
            (Ids{c4_}));
  EXPECT_EQ(Page(kB, {{"q", c4_}, {"dateField", "createdAt"}, {"to", "2026-01-07T09:00:00Z"}}),
            Ids{});
  EXPECT_EQ(Page(kB, {{"q", c4_.substr(0, c4_.size() - 1)}}), Ids{});  // the beginning of it
  EXPECT_EQ(Page(kB, {{"q", c4_.substr(4)}}), Ids{});                  // text: ids are not
  EXPECT_EQ(Page(kB, {{"q", "ctr_nosuchcontract"}}), Ids{});
}

TEST_F(ContractQueriesTest, FiltersCombine) {
  EXPECT_EQ(Page(kB, {{"organizationId", "org_a"},
                      {"status", "completed"},
                      {"participantAction", "view"},
                      {"q", "delta"}}),
            (Ids{c5_}));
  EXPECT_EQ(Page(kB, {{"organizationId", "org_a"}, {"q", "echo"}}), Ids{});
}

TEST_F(ContractQueriesTest, PagesFollowCursorsNewestFirst) {
  Result<ContractPage> first = List(kA1, {{"limit", "2"}});
  ASSERT_TRUE(first);
  ASSERT_EQ(first->items.size(), 2u);
  ASSERT_TRUE(first->next_cursor);
  EXPECT_EQ(All(kA1, {{"limit", "2"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(All(kA1, {{"limit", "1"}}), (Ids{c6_, c5_, c3_, c2_, c1_}));
  EXPECT_EQ(All(kB, {{"limit", "2"}, {"status", "sent"}}), (Ids{c4_, c1_}));
  EXPECT_EQ(All(kB, {{"limit", "3"}, {"q", "s"}}), Page(kB, {{"q", "s"}}));
  // A full last page has no cursor.
  Result<ContractPage> exact = List(kA1, {{"limit", "5"}});
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->items.size(), 5u);
  EXPECT_FALSE(exact->next_cursor);
  Result<ContractPage> large = List(kA1, {{"limit", "200"}});
  ASSERT_TRUE(large);
  EXPECT_EQ(large->items.size(), 5u);
  EXPECT_FALSE(large->next_cursor);
}

TEST_F(ContractQueriesTest, TheLimitMayChangeBetweenPages) {
  Result<ContractPage> first = List(kA1, {{"limit", "2"}});
  ASSERT_TRUE(first);
  EXPECT_EQ(Page(kA1, {{"limit", "3"}, {"cursor", *first->next_cursor}}), (Ids{c3_, c2_, c1_}));
}

TEST_F(ContractQueriesTest, TamperedOrMisusedCursorsAreRefused) {
  Result<ContractPage> first = List(kA1, {{"limit", "2"}});
  ASSERT_TRUE(first);
  const std::string cursor = *first->next_cursor;
  std::string tampered = cursor;
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'x' ? 'y' : 'x';
  for (const auto& [actor, params] : std::vector<std::pair<QueryActor, QueryParams>>{
           {kA1, {{"limit", "2"}, {"cursor", tampered}}},
           {kA1, {{"limit", "2"}, {"cursor", cursor}, {"status", "sent"}}},
           {kA1, {{"limit", "2"}, {"cursor", cursor}, {"scope", "owned"}}},
           {kA1, {{"cursor", cursor}, {"q", "a"}}},
           {kA2, {{"limit", "2"}, {"cursor", cursor}}},  // another client
           {kB, {{"limit", "2"}, {"cursor", cursor}}},   // another organization
           {kA1, {{"cursor", "bm90IGEgY3Vyc29y"}}},
           {kA1, {{"cursor", "!!"}}}}) {
    Result<ContractPage> page = List(actor, params);
    ASSERT_FALSE(page) << params.at("cursor");
    EXPECT_EQ(page.error().code, ErrorCode::kInvalidCursor);
  }
  EXPECT_TRUE(List(kA1, {{"limit", "7"}, {"cursor", cursor}}));
}

TEST_F(ContractQueriesTest, LimitBounds) {
  for (const char* limit : {"0", "201", "-5", "abc"}) {
    Result<ContractPage> page = List(kA1, {{"limit", limit}});
    ASSERT_FALSE(page) << limit;
    EXPECT_EQ(page.error().code, ErrorCode::kValidationFailed);
    EXPECT_EQ(page.error().details.at(0).field, "limit");
  }
  ListQuery query;
  query.limit = 0;
  auto direct = world_->queries().List(kA1, query);
  ASSERT_FALSE(direct);
  EXPECT_EQ(direct.error().details.at(0).field, "limit");
  EXPECT_EQ(Page(kA1, {{"limit", "1"}}), (Ids{c6_}));
}

TEST_F(ContractQueriesTest, BadParameterValuesNameTheParameter) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"status", "archived"},
                                                        {"scope", "everything"},
                                                        {"dateField", "signedAt"},
                                                        {"from", "last week"},
                                                        {"to", "2026-02-30"},
                                                        {"participantAction", "approve"},
                                                        {"accessRole", "owner"}}) {
    Result<ContractPage> page = List(kA1, {{name, value}});
    ASSERT_FALSE(page) << name;
    EXPECT_EQ(page.error().code, ErrorCode::kValidationFailed);
    ASSERT_EQ(page.error().details.size(), 1u);
    EXPECT_EQ(page.error().details[0].field, name);
  }
}

TEST_F(ContractQueriesTest, GetAnswersReadersOnly) {
  auto own = world_->queries().Get(kA1, c1_);
  ASSERT_TRUE(own) << own.error().message;
  const boost::json::object contract = boost::json::parse(own->json).as_object();
  EXPECT_EQ(contract.at("id").as_string(), c1_);
  EXPECT_EQ(contract.at("status"), "sent");
  EXPECT_EQ(contract.at("title"), "Alpha services");
  EXPECT_EQ(own->version, contract.at("version").to_number<uint64_t>());
  EXPECT_EQ(own->access_roles, std::vector<AccessRole>{AccessRole::kController});

  auto viewer = world_->queries().Get(kB, c1_);
  ASSERT_TRUE(viewer);
  EXPECT_EQ(viewer->access_roles, std::vector<AccessRole>{AccessRole::kViewer});
  EXPECT_EQ(viewer->json, own->json);

  for (const auto& [actor, id] : NotReadable()) {
    auto got = world_->queries().Get(actor, id);
    ASSERT_FALSE(got) << actor.organization_id << " " << id;
    EXPECT_EQ(got.error().code, ErrorCode::kContractNotFound);
  }
}

TEST_F(ContractQueriesTest, StatusRepresentation) {
  auto status = world_->queries().Status(kC, c6_);
  ASSERT_TRUE(status) << status.error().message;
  const boost::json::object json = boost::json::parse(status->json).as_object();
  EXPECT_EQ(json.at("status"), "signing");
  EXPECT_EQ(json.at("lifecycle").at("sentAt"), "2026-01-15T10:00:00Z");
  EXPECT_EQ(status->access_roles, std::vector<AccessRole>{AccessRole::kSigner});
  EXPECT_EQ(world_->queries().Status(kD, c6_).error().code, ErrorCode::kContractNotFound);
}

TEST_F(ContractQueriesTest, StatusAnswersReadersOnlyAsGetDoes) {
  for (const auto& [actor, id] : std::vector<std::pair<QueryActor, std::string>>{
           {kA1, c1_}, {kB, c1_}, {kC, c6_}, {kA2, c2_}, {kB, c4_}, {kF, c4_}}) {
    auto got = world_->queries().Get(actor, id);
    auto status = world_->queries().Status(actor, id);
    ASSERT_TRUE(got && status) << actor.organization_id << " " << id;
    EXPECT_EQ(status->version, got->version);
    EXPECT_EQ(status->access_roles, got->access_roles);
  }
  for (const auto& [actor, id] : NotReadable()) {
    auto status = world_->queries().Status(actor, id);
    ASSERT_FALSE(status) << actor.organization_id << " " << id;
    EXPECT_EQ(status.error().code, ErrorCode::kContractNotFound);
  }
}

// A status row written before rows carried their grants (bare JSON) is answered from the grant.
TEST_F(ContractQueriesTest, AnOlderStatusRowIsAnsweredFromTheGrant) {
  const std::string key = "contracts/s/" + c1_;
  const std::optional<std::string> headed = world_->views().Get(key).value();
  ASSERT_TRUE(headed);
  const auto rewrite = [&](std::string row) {
    ViewCommit commit;
    commit.rows.emplace(key, std::move(row));
    ASSERT_TRUE(world_->views().Commit(commit));
  };
  const std::string json = headed->substr(headed->find('\n') + 1);
  rewrite(json);
  auto viewer = world_->queries().Status(kB, c1_);
  ASSERT_TRUE(viewer) << viewer.error().message;
  EXPECT_EQ(viewer->json, json);
  EXPECT_EQ(viewer->access_roles, std::vector<AccessRole>{AccessRole::kViewer});
  EXPECT_EQ(world_->queries().Status(kD, c1_).error().code, ErrorCode::kContractNotFound);
  rewrite(*headed);
  EXPECT_EQ(world_->queries().Status(kB, c1_)->json, json);
}

TEST_F(ContractQueriesTest, AuditTrailHasEveryEventWithItsLeafHash) {
  auto trail = world_->queries().AuditTrail(kB, c5_);
  ASSERT_TRUE(trail) << trail.error().message;
  auto records = world_->store().ReadStream("contract-" + c5_, StreamVersion(1), 100);
  ASSERT_TRUE(records);
  ASSERT_EQ(trail->size(), records->size());
  for (size_t i = 0; i < records->size(); ++i) {
    const auto& record = (*records)[i];
    const boost::json::object entry = boost::json::parse((*trail)[i].json).as_object();
    EXPECT_EQ((*trail)[i].stream_version, i + 1);
    EXPECT_EQ(entry.at("streamVersion"), i + 1);
    EXPECT_EQ(entry.at("position"), record.position.value());
    EXPECT_EQ(entry.at("eventId").as_string(), record.event_id);
    EXPECT_EQ(entry.at("type").as_string(), record.type);
    EXPECT_EQ(entry.at("recordedAt").as_string(), FormatTimestamp(record.recorded_at_us));
    EXPECT_EQ(entry.at("actor").at("clientId"), "cli_a1");
    EXPECT_EQ(entry.at("actor").at("organizationId"), "org_a");
    EXPECT_EQ(entry.at("actor").at("ip"), "192.0.2.7");
    EXPECT_EQ(entry.at("actor").at("userAgent"), "script");
    EXPECT_FALSE(entry.at("actor").at("requestId").as_string().empty());
    // The leaf of the ledger: the hash of exactly the bytes stored.
    auto raw = world_->store().ReadRaw(record.position);
    ASSERT_TRUE(raw);
    EXPECT_EQ(entry.at("leafHash").as_string(), ToHex(eventstore::LeafHash(*raw)));
    auto leaf = world_->store().ledger().LeafHashAt(record.position.value());
    ASSERT_TRUE(leaf);
    EXPECT_EQ(entry.at("leafHash").as_string(), ToHex(*leaf));
  }
  EXPECT_EQ(trail->back().json.find("contract.completed") != std::string::npos, true);
  EXPECT_EQ(world_->queries().AuditTrail(kD, c5_).error().code, ErrorCode::kContractNotFound);
}

TEST_F(ContractQueriesTest, AuditEntriesCarryTheDetailsOfTheirEvents) {
  auto trail = world_->queries().AuditTrail(kA1, c3_);
  ASSERT_TRUE(trail);
  const boost::json::object last = boost::json::parse(trail->back().json).as_object();
  EXPECT_EQ(last.at("type"), "contract.declined");
  EXPECT_EQ(last.at("details").at("reason"), "no");
  EXPECT_FALSE(last.at("details").at("participantId").as_string().empty());
  const boost::json::object first = boost::json::parse(trail->front().json).as_object();
  EXPECT_EQ(first.at("type"), "contract.created");
  EXPECT_FALSE(first.contains("details"));
}

TEST(ContractQueriesNewWorldTest, LongEvidenceIsShownByItsHash) {
  testing::ContractWorld world;
  const Actor a1 = testing::Client("cli_a1", "org_a");
  const std::string id = world.script().Create(
      a1, testing::ServicesBody("Evidence", testing::Parties{}), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(world.script().RunJson(a1, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  const std::string image(5000, 'i');
  boost::json::object evidence{{"ipAddress", "198.51.100.4"}, {"signatureImage", image}};
  ASSERT_TRUE(world.script().Run(
      a1, id, RecordSignerCompleted{world.script().ParticipantId(id, "Clara Client"), "", evidence},
      "2026-01-03T10:00:00Z"));
  world.Sync();
  auto trail = world.queries().AuditTrail(kA1, id);
  ASSERT_TRUE(trail);
  ASSERT_GE(trail->size(), 2u);  // signer.completed, then contract.signing_in_progress
  const boost::json::object signed_entry =
      boost::json::parse((*trail)[trail->size() - 2].json).as_object();
  ASSERT_EQ(signed_entry.at("type"), "signer.completed");
  const auto& shown = signed_entry.at("details").at("evidence");
  EXPECT_EQ(shown.at("ipAddress"), "198.51.100.4");
  EXPECT_EQ(shown.at("signatureImage").as_string(), "sha256:" + Sha256Hex(image));
}

// The details of one audit entry, by the entry's type (the last such entry).
boost::json::object DetailsOf(const std::vector<AuditEntry>& trail, std::string_view type) {
  for (auto it = trail.rbegin(); it != trail.rend(); ++it) {
    const boost::json::object entry = boost::json::parse(it->json).as_object();
    if (entry.at("type").as_string() != type) continue;
    const auto* details = entry.if_contains("details");
    return details ? details->as_object() : boost::json::object{};
  }
  ADD_FAILURE() << "no " << type << " in the audit trail";
  return {};
}

TEST(ContractQueriesNewWorldTest, AuditEntriesSayHowAContractWasRemindedVoidedOrExpired) {
  testing::ContractWorld world;
  const Actor a1 = testing::Client("cli_a1", "org_a");
  const std::string voided = world.script().Create(
      a1, testing::ServicesBody("Voided", testing::Parties{}), "2026-01-01T10:00:00Z");
  const std::string expired = world.script().Create(
      a1, testing::ServicesBody("Expired", testing::Parties{}), "2026-01-01T10:00:00Z");
  for (const auto& id : {voided, expired}) {
    ASSERT_TRUE(world.script().RunJson(a1, id, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  }
  const std::string clara = world.script().ParticipantId(voided, "Clara Client");
  ASSERT_TRUE(world.script().RunJson(a1, voided, "RemindParticipants",
                                     R"({"participantIds":[")" + clara + R"("]})",
                                     "2026-01-03T10:00:00Z"));
  ASSERT_TRUE(world.script().RunJson(a1, voided, "VoidContract", R"({"reason":"Wrong price"})",
                                     "2026-01-04T10:00:00Z"));
  // expiresInDays 30 by default: due on 2026-02-01.
  ASSERT_TRUE(
      world.script().RunJson(Actor{}, expired, "RunDueTimers", "{}", "2026-02-01T10:00:01Z"));
  world.Sync();

  auto voided_trail = world.queries().AuditTrail(kA1, voided);
  ASSERT_TRUE(voided_trail) << voided_trail.error().message;
  const auto sent = DetailsOf(*voided_trail, "contract.sent");
  EXPECT_EQ(sent.at("expiresAt"), "2026-02-01T10:00:00.000000Z");
  const auto reminded = DetailsOf(*voided_trail, "participant.reminded");
  EXPECT_EQ(reminded.at("participantId").as_string(), clara);
  EXPECT_EQ(reminded.at("reminderNumber").to_number<int64_t>(), 1);
  EXPECT_EQ(reminded.at("trigger"), "manual");
  EXPECT_EQ(reminded.at("channel"), "webhook");
  const auto void_details = DetailsOf(*voided_trail, "contract.voided");
  EXPECT_EQ(void_details.at("reason"), "Wrong price");
  EXPECT_EQ(void_details.at("voidedBy"), "cli_a1");
  EXPECT_EQ(void_details.at("voidedAt"), "2026-01-04T10:00:00Z");

  auto expired_trail = world.queries().AuditTrail(kA1, expired);
  ASSERT_TRUE(expired_trail) << expired_trail.error().message;
  const auto expiry = DetailsOf(*expired_trail, "contract.expired");
  EXPECT_EQ(expiry.at("expiresAt"), "2026-02-01T10:00:00.000000Z");
  EXPECT_EQ(expiry.at("expiredAt"), "2026-02-01T10:00:01Z");
}

TEST(ContractQueriesNewWorldTest, PagingIsStableWhileContractsAreCreated) {
  testing::ContractWorld world;
  const Actor a1 = testing::Client("cli_a1", "org_a");
  Ids created;
  for (int i = 0; i < 5; ++i) {
    created.push_back(world.script().Create(a1, testing::ServicesBody("T", testing::Parties{}),
                                            "2026-02-01T10:00:0" + std::to_string(i) + "Z"));
  }
  world.Sync();
  ListQuery query;
  query.limit = 2;
  auto first = world.queries().List(kA1, query);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->items.at(0).id, created[4]);
  // A newer contract arrives between pages: it is on top, and the next page goes on from the
  // cursor without repeating or skipping anything.
  world.script().Create(a1, testing::ServicesBody("T", testing::Parties{}), "2026-02-01T10:00:09Z");
  world.Sync();
  query.cursor = first->next_cursor;
  auto second = world.queries().List(kA1, query);
  ASSERT_TRUE(second);
  ASSERT_EQ(second->items.size(), 2u);
  EXPECT_EQ(second->items[0].id, created[2]);
  EXPECT_EQ(second->items[1].id, created[1]);
}

// Voided and expired contracts, and the deadline of every sent one, as list filters.
TEST(ContractQueriesNewWorldTest, VoidAndExpiryAreStatusesAndDates) {
  testing::ContractWorld world;
  testing::ContractScript& script = world.script();
  const Actor a1 = testing::Client("cli_a1", "org_a");
  const auto create = [&](const std::string& title, const std::string& at) {
    return script.Create(a1, testing::ServicesBody(title, testing::Parties{}), at);
  };
  const std::string voided = create("Voided", "2026-01-01T10:00:00Z");
  ASSERT_TRUE(script.RunJson(a1, voided, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  ASSERT_TRUE(
      script.Run(a1, voided, VoidContract{"wrong counterparty", {}}, "2026-01-03T10:00:00Z"));
  const std::string expired = create("Expired", "2026-01-04T10:00:00Z");
  ASSERT_TRUE(script.RunJson(a1, expired, "SendContract",
                             R"({"signingSettings": {"expiresInDays": 1}})",
                             "2026-01-05T10:00:00Z"));
  ASSERT_TRUE(script.Run(a1, expired, RunDueTimers{}, "2026-01-07T10:00:00Z"));
  const std::string sent = create("Sent", "2026-01-08T10:00:00Z");
  ASSERT_TRUE(script.RunJson(a1, sent, "SendContract",
                             R"({"signingSettings": {"expiresAt": "2026-03-01T00:00:00Z"}})",
                             "2026-01-09T10:00:00Z"));
  const std::string voided_draft = create("Voided draft", "2026-01-10T10:00:00Z");
  ASSERT_TRUE(script.Run(a1, voided_draft, VoidContract{"not needed", {}}, "2026-01-11T10:00:00Z"));
  create("Draft", "2026-01-12T10:00:00Z");
  world.Sync();

  const auto page = [&](const QueryParams& params) {
    Ids ids;
    auto query = ParseListQuery(params);
    EXPECT_TRUE(query) << query.error().message;
    if (!query) return ids;
    auto listed = world.queries().List(kA1, *query);
    EXPECT_TRUE(listed) << listed.error().message;
    if (listed) {
      for (const auto& item : listed->items) ids.push_back(item.id);
    }
    return ids;
  };
  EXPECT_EQ(page({{"status", "voided"}}), (Ids{voided_draft, voided}));
  EXPECT_EQ(page({{"status", "expired"}}), (Ids{expired}));
  EXPECT_EQ(page({{"status", "sent"}}), (Ids{sent}));
  EXPECT_EQ(
      page({{"dateField", "voidedAt"}, {"from", "2026-01-03T10:00:00Z"}, {"to", "2026-01-04"}}),
      (Ids{voided}));
  EXPECT_EQ(page({{"dateField", "voidedAt"}, {"from", "2000-01-01"}}), (Ids{voided_draft, voided}));
  EXPECT_EQ(page({{"dateField", "expiredAt"}, {"from", "2000-01-01"}}), (Ids{expired}));
  // expiresAt is the deadline fixed at send, kept when the contract ends; drafts have none.
  EXPECT_EQ(page({{"dateField", "expiresAt"}, {"from", "2026-02-02"}}), (Ids{sent}));
  // A listing with a range is ordered by the range's date, latest first.
  EXPECT_EQ(page({{"dateField", "expiresAt"}, {"to", "2026-02-01T10:00:00.000001Z"}}),
            (Ids{voided, expired}));
  EXPECT_EQ(page({{"status", "voided"}, {"dateField", "expiresAt"}, {"from", "2000-01-01"}}),
            (Ids{voided}));
}

TEST(ContractQueriesNewWorldTest, NoCursorKeyIsOurFault) {
  MemoryViewStore views;
  ContractQueries queries(views, "");
  auto page = queries.List(kA1, ListQuery{});
  ASSERT_FALSE(page);
  EXPECT_EQ(page.error().code, ErrorCode::kInternal);
}

}  // namespace
}  // namespace esign::projections
