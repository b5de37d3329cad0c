// Rebuild: a view rebuilt from the log equals the live one, row for row, whatever the batch
// sizes; FirstDifference names the first row that differs.
#include "projections/rebuild.h"

#include <gtest/gtest.h>

#include "contract_script.h"
#include "eventstore/rocksdb_event_store.h"
#include "projections/contract_text_index.h"
#include "projections/contract_views.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "projections/rocksdb_view_store.h"
#include "projections/template_catalog.h"

namespace esign::projections {
namespace {

using std::chrono::milliseconds;

// A history over three contracts: creation, edits, participants replaced, send, signatures,
// completion with evidence, a decline, and a draft left alone.
void ScriptHistory(testing::ContractScript& script) {
  const Actor a1 = testing::Client("cli_a1", "org_a");
  const Actor a2 = testing::Client("cli_a2", "org_a");
  const testing::Parties parties;

  const std::string done =
      script.Create(a1, testing::ServicesBody("Done", parties), "2026-01-01T10:00:00Z");
  ASSERT_TRUE(script.RunJson(a1, done, "UpdateData",
                             R"({"fieldValues": [{"key": "clientName", "value": "Changed"}]})",
                             "2026-01-01T11:00:00Z"));
  ASSERT_TRUE(script.RunJson(a1, done, "SendContract", "{}", "2026-01-02T10:00:00Z"));
  ASSERT_TRUE(script.Run(a1, done,
                         RecordSignerCompleted{script.ParticipantId(done, "Clara Client"), "", {}},
                         "2026-01-03T10:00:00Z"));
  ASSERT_TRUE(script.Run(
      a1, done, RecordSignerCompleted{script.ParticipantId(done, "Provider org_c"), "", {}},
      "2026-01-04T10:00:00Z"));
  ASSERT_TRUE(script.Run(a1, done, CompleteContract{"signed/done.pdf", std::string(64, 'a')},
                         "2026-01-05T10:00:00Z"));
  ASSERT_TRUE(
      script.Run(a1, done, PersistEvidence{2, std::string(64, 'b')}, "2026-01-06T10:00:00Z"));

  testing::Parties other = parties;
  other.viewer_org = "org_x";
  const std::string declined =
      script.Create(a2, testing::ServicesBody("Declined", other), "2026-01-07T10:00:00Z");
  ASSERT_TRUE(script.RunJson(a2, declined, "ReplaceParticipants", R"({"participants": [
      {"name": "Nina", "email": "nina@n.example", "action": "sign", "recipientType": "individual",
       "executionChannel": "integrator_managed", "templateRoleId": "client_signatory"},
      {"name": "Prov", "organizationId": "org_c", "action": "sign",
       "recipientType": "organization", "executionChannel": "provider_managed",
       "templateRoleId": "provider_company"},
      {"name": "View", "organizationId": "org_y", "action": "view",
       "recipientType": "organization"}]})",
                             "2026-01-07T11:00:00Z"));
  ASSERT_TRUE(script.RunJson(a2, declined, "SendContract", "{}", "2026-01-08T10:00:00Z"));
  ASSERT_TRUE(script.Run(
      a2, declined, RecordSignerDeclined{script.ParticipantId(declined, "Nina"), "wrong amount"},
      "2026-01-09T10:00:00Z"));

  script.Create(a1, testing::ServicesBody("Draft", parties), "2026-01-10T10:00:00Z");
}

TEST(RebuildTest, ARebuiltViewEqualsTheLiveOne) {
  testing::TempDir dir;
  auto store = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
  ASSERT_TRUE(store);
  auto live = RocksViewStore::Open(**store);
  ASSERT_TRUE(live);
  {
    TemplateCatalog catalog;
    ContractViews contracts(**store);
    ContractTextIndex text_index(**store);
    // The text index on a projector of its own, as the service runs it.
    Projector projector(**store, **live, {&catalog, &contracts});
    Projector text_projector(**store, **live, {&text_index});
    ASSERT_TRUE(projector.Start());
    ASSERT_TRUE(text_projector.Start());
    testing::ContractScript script(**store);
    script.ImportTemplate("services-agreement.json");
    script.ImportTemplate("mutual-nda.json");
    // The live projector runs while the history is made, in batches as they come.
    ScriptHistory(script);
    ASSERT_TRUE(projector.WaitFor((*store)->Size(), milliseconds(5000)));
    ASSERT_TRUE(text_projector.WaitFor((*store)->Size(), milliseconds(5000)));
    ASSERT_TRUE(projector.health());
    ASSERT_TRUE(text_projector.health());
  }
  ASSERT_GT((*store)->Size(), 15u);

  for (const size_t batch : {size_t{1}, size_t{7}, size_t{1024}}) {
    MemoryViewStore rebuilt;
    TemplateCatalog catalog;
    ContractViews contracts(**store);
    ContractTextIndex text_index(**store);
    auto reached = Rebuild(**store, {&catalog, &contracts, &text_index}, rebuilt, batch);
    ASSERT_TRUE(reached) << reached.error().message;
    EXPECT_EQ(*reached, (*store)->Size());
    EXPECT_EQ(*rebuilt.Checkpoint("contracts"), (*store)->Size());
    EXPECT_GT(rebuilt.RowCount(), 30u);
    auto difference = FirstDifference(**live, rebuilt);
    ASSERT_TRUE(difference);
    EXPECT_EQ(*difference, std::nullopt) << "batch " << batch << ": " << **difference;
    EXPECT_NE(catalog.Find("tpl_mutual_nda"), nullptr);
  }
  // The comparison covers every list index, the secondary ones included.
  for (const std::string family :
       {"contracts/g/", "contracts/gs/", "contracts/go/", "contracts/gc/", "contracts/ga/",
        "contracts/gr/", "contracts/gb/", "contract-text-2/gt/", "contracts/gd/"}) {
    bool present = false;
    ASSERT_TRUE((*live)->Scan(family, "", false, [&](auto, auto) {
      present = true;
      return false;
    }));
    EXPECT_TRUE(present) << family;
  }
  live->reset();
  (*store)->Close();
}

TEST(RebuildTest, FirstDifferenceNamesTheFirstDifferingRow) {
  MemoryViewStore a;
  MemoryViewStore b;
  ViewCommit commit;
  for (int i = 0; i < 3000; ++i) {  // more than one chunk of the comparison
    commit.rows.insert_or_assign("p/" + std::to_string(100000 + i), "v");
  }
  ASSERT_TRUE(a.Commit(commit));
  ASSERT_TRUE(b.Commit(commit));
  EXPECT_EQ(*FirstDifference(a, b), std::nullopt);

  ViewCommit changed;
  changed.rows.insert_or_assign("p/102500", "other");
  ASSERT_TRUE(b.Commit(changed));
  EXPECT_EQ(*FirstDifference(a, b), "p/102500");

  ViewCommit extra;
  extra.rows.insert_or_assign("p/101000x", "v");
  ASSERT_TRUE(a.Commit(extra));
  EXPECT_EQ(*FirstDifference(a, b), "p/101000x");
  EXPECT_EQ(*FirstDifference(b, a), "p/101000x");

  MemoryViewStore empty;
  EXPECT_EQ(*FirstDifference(empty, a), "p/100000");
  EXPECT_EQ(*FirstDifference(empty, empty), std::nullopt);
}

TEST(RebuildTest, RebuildStopsAtAnError) {
  testing::TempDir dir;
  auto store = eventstore::RocksEventStore::Open(testing::SmallRocksOptions(dir.path()));
  ASSERT_TRUE(store);
  eventstore::NewEvent bad;
  bad.event_id = "evt_bad";
  bad.type = "contract.created";
  bad.data = "{}";
  // A contract stream without a contract id: the projection refuses it.
  ASSERT_TRUE((*store)->Append("contract-", eventstore::ExpectedVersion::Any(), {bad}));
  MemoryViewStore rebuilt;
  ContractViews contracts(**store);
  auto reached = Rebuild(**store, {&contracts}, rebuilt);
  ASSERT_FALSE(reached);
  EXPECT_EQ(reached.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(*rebuilt.Checkpoint("contracts"), 0u);
  EXPECT_EQ(rebuilt.RowCount(), 0u);
  (*store)->Close();
}

}  // namespace
}  // namespace esign::projections
