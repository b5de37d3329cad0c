// The list indexes against a brute-force reference: a world of contracts across organizations,
// and for every actor, scope and filter combination the pages (followed through their cursors,
// with the default scan budget and with a tiny one) must list exactly the contracts that the
// reference finds by filtering every contract's state, in the listing's order. Also the scan
// budget, Unicode q and cursors of the earlier format. The same rows copied into a RocksDB view
// store answer the same, through its iterators.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "base/time_text.h"
#include "contract_world.h"
#include "projections/contract_index.h"
#include "projections/list_position.h"
#include "projections/list_scan.h"
#include "projections/rocksdb_view_store.h"
#include "projections/text_fold.h"

namespace esign::projections {
namespace {

using Ids = std::vector<std::string>;

const QueryActor kActors[] = {{"cli_a1", "org_a"}, {"cli_a2", "org_a"}, {"cli_b", "org_b"},
                              {"cli_c", "org_c"},  {"cli_d", "org_d"},  {"cli_f", "org_f"}};

class ListIndexTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    world_ = new testing::ContractWorld();
    testing::ContractScript& script = world_->script();
    const Actor clients[] = {testing::Client("cli_a1", "org_a"), testing::Client("cli_a2", "org_a"),
                             testing::Client("cli_f", "org_f")};
    const char* titles[] = {"Ärger im Büro", "Straße 5 lease", "Alpha services",
                            "ﬁnal terms",    "Beta zz draft",  "Gamma AÄ"};
    const char* signer_orgs[] = {"org_c", "org_b", "org_f", "org_c"};
    const char* viewer_orgs[] = {"org_b", "", "org_c", "org_d"};
    for (int i = 0; i < 36; ++i) {
      const Actor& actor = clients[i % 3];
      testing::Parties parties;
      parties.signer_org = signer_orgs[i % 4];
      parties.viewer_org = viewer_orgs[(i / 2) % 4];
      parties.copy_org = i % 5 == 0 ? "org_d" : "";
      if (parties.viewer_org == parties.signer_org) parties.viewer_org = "";
      parties.signer_name = i % 7 == 0 ? "Jörg STRASSER" : "Clara Client";
      const std::string title = std::string(titles[i % 6]) + " " + std::to_string(i);
      const std::string at = FormatTimestamp(1767261600000000 + int64_t{i} * 3600000000);
      const std::string id = script.Create(actor, testing::ServicesBody(title, parties), at);
      ASSERT_FALSE(id.empty());
      ids_.push_back(id);
      // Sent at times not in creation order, so date order differs from id order.
      if (i % 3 != 1) {
        const std::string sent =
            FormatTimestamp(1767261600000000 + int64_t{(i * 7) % 36} * 3600000000 + 1800000000);
        ASSERT_TRUE(script.RunJson(actor, id, "SendContract", "{}", sent));
        if (i % 4 == 0) {
          ASSERT_TRUE(script.Run(actor, id, VoidContract{"mistake", {}}, sent));
        }
      }
    }
    world_->Sync();
    CopyViewsToRocks();
  }
  static void TearDownTestSuite() {
    rocks_views_.reset();
    if (rocks_log_) rocks_log_->Close();
    rocks_log_.reset();
    delete rocks_dir_;
    rocks_dir_ = nullptr;
    delete world_;
    world_ = nullptr;
  }

  // The same rows in a RocksDB view store: lists there walk RocksDB iterators, not map scans.
  static void CopyViewsToRocks() {
    rocks_dir_ = new testing::TempDir();
    auto log = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(rocks_dir_->path()));
    ASSERT_TRUE(log);
    rocks_log_ = std::move(*log);
    auto views = RocksViewStore::Open(*rocks_log_);
    ASSERT_TRUE(views);
    rocks_views_ = std::move(*views);
    ViewCommit all;
    ASSERT_TRUE(
        world_->views().Scan("", "", false, [&](std::string_view key, std::string_view value) {
          all.rows.insert_or_assign(std::string(key), std::string(value));
          return true;
        }));
    ASSERT_TRUE(rocks_views_->Commit(all));
  }

  // The reference: every contract's entry for the actor's organization, filtered one by one.
  static Ids Expected(const QueryActor& actor, const ListQuery& query) {
    std::vector<IndexEntry> found;
    for (const std::string& id : ids_) {
      Result<ContractState> state = world_->script().Load(id);
      EXPECT_TRUE(state);
      const auto entries = IndexEntriesOf(*state, id);
      const auto it = entries.find(actor.organization_id);
      if (it == entries.end()) continue;
      const IndexEntry& e = it->second;
      bool keep = true;
      switch (query.scope) {
        case ListScope::kReadable:
          break;
        case ListScope::kOwned:
          keep = e.Has(AccessRole::kController) && state->created_by == actor.client_id;
          break;
        case ListScope::kOrganization:
          keep = e.Has(AccessRole::kController);
          break;
        case ListScope::kSharedWithMe:
          keep = e.Has(AccessRole::kViewer);
          break;
      }
      if (query.status) keep = keep && state->status == *query.status;
      if (IsDatedListing(query)) {
        const auto date = e.Date(query.date_field);
        keep = keep && date && (!query.from_us || *date >= *query.from_us) &&
               (!query.to_us || *date < *query.to_us);
      }
      if (query.organization_id) keep = keep && state->organization_id == *query.organization_id;
      if (query.counterparty_organization_id) {
        bool involved = state->organization_id == *query.counterparty_organization_id;
        for (const auto& p : state->participants) {
          involved = involved || p.organization_id == *query.counterparty_organization_id;
        }
        keep = keep && involved && *query.counterparty_organization_id != actor.organization_id;
      }
      if (query.participant_action) keep = keep && e.Has(*query.participant_action);
      if (query.access_role) keep = keep && e.Has(*query.access_role);
      if (query.q) {
        std::string text = state->title;
        for (const auto& p : state->participants)
          text += "\n" + p.name + "\n" + p.email.value_or("");
        keep = keep && FoldText(text).find(*query.q) != std::string::npos;
      }
      if (query.contract_id) keep = keep && id == *query.contract_id;
      if (keep) found.push_back(e);
    }
    const auto order = [&](const IndexEntry& e) {
      return std::make_tuple(IsDatedListing(query) ? *e.Date(query.date_field) : 0, e.contract_id);
    };
    std::sort(found.begin(), found.end(),
              [&](const IndexEntry& a, const IndexEntry& b) { return order(a) > order(b); });
    Ids out;
    for (const auto& e : found) out.push_back(e.contract_id);
    return out;
  }

  // Every page through the cursors; `pages` counts them.
  static Ids All(const ContractQueries& queries, const QueryActor& actor, ListQuery query,
                 int* pages = nullptr) {
    Ids ids;
    for (int n = 1; n <= 1000; ++n) {
      Result<ContractPage> page = queries.List(actor, query);
      EXPECT_TRUE(page) << page.error().message;
      if (!page) break;
      EXPECT_LE(page->items.size(), query.limit);
      for (const auto& item : page->items) ids.push_back(item.id);
      if (pages != nullptr) *pages = n;
      if (!page->next_cursor) break;
      query.cursor = *page->next_cursor;
    }
    return ids;
  }

  static inline testing::ContractWorld* world_ = nullptr;
  static inline testing::TempDir* rocks_dir_ = nullptr;
  static inline std::unique_ptr<eventstore::RocksEventStore> rocks_log_;
  static inline std::unique_ptr<RocksViewStore> rocks_views_;
  static inline Ids ids_;
};

TEST_F(ListIndexTest, EveryFilterInEveryScopeMatchesTheReference) {
  const std::vector<QueryParams> filters = {
      {},
      {{"status", "sent"}},
      {{"status", "draft"}},
      {{"status", "voided"}},
      {{"dateField", "createdAt"},
       {"from", "2026-01-01T15:00:00Z"},
       {"to", "2026-01-02T09:00:00Z"}},
      {{"dateField", "sentAt"}, {"from", "2026-01-01T00:00:00Z"}},
      {{"dateField", "sentAt"}, {"to", "2026-01-02T03:00:00Z"}},
      {{"dateField", "voidedAt"}, {"from", "2020-01-01"}},
      {{"dateField", "expiresAt"}, {"from", "2026-01-31T20:00:00Z"}},
      {{"organizationId", "org_a"}},
      {{"organizationId", "org_f"}},
      {{"counterpartyOrganizationId", "org_c"}},
      {{"counterpartyOrganizationId", "org_a"}},
      {{"counterpartyOrganizationId", "org_none"}},
      {{"participantAction", "sign"}},
      {{"participantAction", "view"}},
      {{"participantAction", "receive_copy"}},
      {{"accessRole", "controller"}},
      {{"accessRole", "signer"}},
      {{"accessRole", "viewer"}},
      {{"q", "ärger"}},
      {{"q", "SERVICES"}},
      {{"q", "zz"}},
      {{"q", "ctr_00001"}},   // the beginning of an id: no contract
      {{"q", "CTR_000012"}},  // an id
      {{"q", "000012"}},      // a piece of one: text, which ids are not
      {{"q", "strass"}},
      {{"q", "no such text"}},
      {{"status", "sent"}, {"q", "client"}},
      {{"status", "sent"}, {"dateField", "sentAt"}, {"from", "2026-01-01T12:00:00Z"}, {"q", "a"}},
      {{"counterpartyOrganizationId", "org_c"},
       {"dateField", "createdAt"},
       {"from", "2026-01-01T20:00:00Z"}},
      {{"participantAction", "sign"}, {"accessRole", "signer"}, {"q", "gamma"}},
      // Dense lists that rest in a long page, then a candidate they would have refused.
      {{"participantAction", "sign"}, {"q", "clara client"}, {"status", "sent"}},
      {{"accessRole", "controller"}, {"q", "client"}, {"status", "voided"}},
  };
  const ContractQueries tiny_budget(world_->views(), testing::kCursorKey, 5);
  // Enough for the date index's first rows, too little for the probe to end: the date index
  // goes on where its first rows stopped.
  const ContractQueries small_budget(world_->views(), testing::kCursorKey, 40);
  const ContractQueries in_rocks(*rocks_views_, testing::kCursorKey);
  const ContractQueries in_rocks_tiny_budget(*rocks_views_, testing::kCursorKey, 5);
  for (const QueryActor& actor : kActors) {
    for (const char* scope : {"readable", "owned", "organization", "shared_with_me"}) {
      for (QueryParams params : filters) {
        params["scope"] = scope;
        params["limit"] = "4";
        Result<ListQuery> query = ParseListQuery(params);
        ASSERT_TRUE(query) << query.error().message;
        const Ids expected = Expected(actor, *query);
        std::string label = actor.client_id + " scope=" + scope;
        for (const auto& [name, value] : params) label += " " + name + "=" + value;
        EXPECT_EQ(All(world_->queries(), actor, *query), expected) << label;
        EXPECT_EQ(All(tiny_budget, actor, *query), expected) << label << " (budget 5)";
        EXPECT_EQ(All(small_budget, actor, *query), expected) << label << " (budget 40)";
        EXPECT_EQ(All(in_rocks, actor, *query), expected) << label << " (RocksDB)";
        EXPECT_EQ(All(in_rocks_tiny_budget, actor, *query), expected)
            << label << " (RocksDB, budget 5)";
        // One long page: a list that agreed with every candidate stops being asked.
        ListQuery long_page = *query;
        long_page.limit = 200;
        EXPECT_EQ(All(world_->queries(), actor, long_page), expected) << label << " (limit 200)";
      }
    }
  }
}

TEST_F(ListIndexTest, TheBudgetBoundsAPageAndCursorsResumeWhereTheScanStopped) {
  const QueryActor actor = kActors[0];
  const ContractQueries queries(world_->views(), testing::kCursorKey, 8);
  // "zq" has no trigram: the scan reads the grants, more of them than the budget.
  ListQuery nothing = *ParseListQuery(QueryParams{{"q", "zq"}});
  Result<ContractPage> first = queries.List(actor, nothing);
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->items.empty());
  ASSERT_TRUE(first->next_cursor);
  int pages = 0;
  EXPECT_EQ(All(queries, actor, nothing, &pages), Ids{});
  EXPECT_GT(pages, 2);
  // The same with matches: exactly them, in order, across short pages.
  ListQuery some = *ParseListQuery(QueryParams{{"q", "zz"}, {"limit", "2"}});
  const Ids expected = Expected(actor, some);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(All(queries, actor, some), expected);
}

TEST_F(ListIndexTest, QFoldsUnicodeCase) {
  const QueryActor actor = kActors[0];
  const auto count = [&](const std::string& q) {
    ListQuery query = *ParseListQuery(QueryParams{{"q", q}, {"limit", "200"}});
    return All(world_->queries(), actor, query).size();
  };
  const size_t aerger = count("ärger");
  EXPECT_GT(aerger, 0u);
  EXPECT_EQ(count("ÄRGER"), aerger);
  EXPECT_EQ(count("A\xCC\x88RGER"), aerger);  // A + combining diaeresis
  const size_t strasse = count("straße");
  EXPECT_GT(strasse, 0u);
  EXPECT_EQ(count("STRASSE"), strasse);  // full case folding: ß is "ss"
  EXPECT_EQ(count("Strasse"), strasse);
  EXPECT_GT(count("final"), 0u);  // the ligature ﬁ is "fi"
  EXPECT_EQ(count("jörg"), count("JÖRG"));
  EXPECT_EQ(FoldText("ÄRGER Straße ﬁ"), "ärger strasse fi");
}

TEST_F(ListIndexTest, CursorsOfTheEarlierFormatStillResumeUndatedListings) {
  const QueryActor actor = kActors[0];
  ListQuery query = *ParseListQuery(QueryParams{{"limit", "3"}});
  const Ids all = All(world_->queries(), actor, query);
  ASSERT_GT(all.size(), 4u);
  const CursorCodec codec(testing::kCursorKey);
  // Then, a cursor carried the last id of the page.
  query.cursor =
      codec.Encode(all[2], QueryFingerprint(actor.client_id, actor.organization_id, query));
  Result<ContractPage> page = world_->queries().List(actor, query);
  ASSERT_TRUE(page);
  ASSERT_FALSE(page->items.empty());
  EXPECT_EQ(page->items[0].id, all[3]);

  ListQuery dated = *ParseListQuery(QueryParams{{"from", "2020-01-01"}});
  dated.cursor =
      codec.Encode(all[2], QueryFingerprint(actor.client_id, actor.organization_id, dated));
  Result<ContractPage> refused = world_->queries().List(actor, dated);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidCursor);
}

TEST(ListPositionTest, RoundTrips) {
  for (const ListPosition& position :
       {ListPosition{std::nullopt, "ctr_1", false}, ListPosition{std::nullopt, "ctr_2", true},
        ListPosition{-5, "ctr_3", true}, ListPosition{1767261600000000, "ctr_%2F4", false}}) {
    Result<ListPosition> back =
        DecodeListPosition(EncodeListPosition(position), position.date.has_value());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->date, position.date);
    EXPECT_EQ(back->contract_id, position.contract_id);
    EXPECT_EQ(back->inclusive, position.inclusive);
  }
  EXPECT_FALSE(DecodeListPosition(std::string("\0q", 2), false));
  EXPECT_FALSE(DecodeListPosition(std::string("\0xnothex/ctr", 12), true));
}

}  // namespace
}  // namespace esign::projections

namespace esign::projections {
namespace {

// Index rows that disagree with the rows they point to are corruption, named by the contract,
// whether the entry is walked to or read by a point look-up, and whether the entry or the page's
// contract row is missing.
TEST(ListCorruptionTest, AnIndexedContractWithoutItsGrantOrRowIsCorruption) {
  const QueryActor actor{"cli_a", "org_a"};
  for (const bool entry_missing : {true, false}) {
    MemoryViewStore views;
    ViewCommit commit;
    const std::string id = "ctr_01JAAAAAAAAAAAAAAAAAAAAAAA";
    commit.rows.insert_or_assign(
        "contracts/" + PostingPrefix(PostingIndex::kStatus, "org_a", "draft") + id, "");
    if (!entry_missing) {
      IndexEntry entry;
      entry.contract_id = id;
      entry.version = 1;
      entry.roles = IndexEntry::Bit(AccessRole::kController);
      entry.controller = "org_a";
      commit.rows.insert_or_assign("contracts/" + GrantPrefix("org_a") + id,
                                   EncodeIndexEntry(entry));
    }
    ASSERT_TRUE(views.Commit(commit));
    const ContractQueries queries(views, testing::kCursorKey);
    const Result<ContractPage> page =
        queries.List(actor, *ParseListQuery(QueryParams{{"status", "draft"}}));
    ASSERT_FALSE(page) << (entry_missing ? "no grant entry" : "no contract row");
    EXPECT_EQ(page.error().code, ErrorCode::kCorruption);
    EXPECT_NE(page.error().message.find(id), std::string::npos) << page.error().message;
  }
}

}  // namespace
}  // namespace esign::projections
