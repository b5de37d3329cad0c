// The text index on a projector of its own, as the service runs it: a list without q sees a new
// contract as soon as the views have it, a q finds it once the text index has it too, and only a
// client that wrote after the text index's position waits for it, and only for a q.
#include "projections/contract_text_index.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "contract_script.h"
#include "eventstore/memory_event_store.h"
#include "projections/contract_queries.h"
#include "projections/contract_views.h"
#include "projections/list_scan.h"
#include "projections/memory_view_store.h"
#include "projections/projector.h"
#include "projections/read_your_writes.h"
#include "projections/template_catalog.h"

namespace esign::projections {
namespace {

using std::chrono::milliseconds;
using Ids = std::vector<std::string>;

constexpr char kCursorKey[] = "test-cursor-key-0123456789abcdef0123456789";

class ContractTextIndexTest : public ::testing::Test {
 protected:
  ContractTextIndexTest()
      : store_(std::move(*eventstore::MemoryEventStore::Create())),
        contracts_(*store_),
        text_index_(*store_),
        views_projector_(*store_, views_, {&catalog_, &contracts_}),
        text_projector_(*store_, views_, {&text_index_}),
        queries_(views_, kCursorKey),
        script_(*store_) {
    EXPECT_TRUE(views_projector_.Start());
    script_.ImportTemplate("services-agreement.json");
  }
  ~ContractTextIndexTest() override {
    text_projector_.Stop();
    views_projector_.Stop();
    store_->Close();
  }

  Ids Page(const QueryParams& params) {
    Result<ListQuery> query = ParseListQuery(params);
    EXPECT_TRUE(query);
    Result<ContractPage> page = queries_.List(QueryActor{"cli_a1", "org_a"}, *query);
    EXPECT_TRUE(page) << page.error().message;
    Ids ids;
    if (page) {
      for (const auto& item : page->items) ids.push_back(item.id);
    }
    return ids;
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  MemoryViewStore views_;
  TemplateCatalog catalog_;
  ContractViews contracts_;
  ContractTextIndex text_index_;
  Projector views_projector_;
  Projector text_projector_;  // started by each test when it wants the text index
  ContractQueries queries_;
  testing::ContractScript script_;
};

TEST_F(ContractTextIndexTest, AQFindsAContractOnceTheTextIndexHasIt) {
  const std::string id =
      script_.Create(testing::Client("cli_a1", "org_a"),
                     testing::ServicesBody("Alpha Services", {}), "2026-01-10T10:00:00Z");
  ASSERT_TRUE(views_projector_.WaitFor(store_->Size(), milliseconds(5000)));
  // The views have it: every filter but q lists it, a q of one or two letters as well (it has no
  // trigram and is decided by the entry alone).
  EXPECT_EQ(Page({}), Ids{id});
  EXPECT_EQ(Page({{"status", "draft"}}), Ids{id});
  EXPECT_EQ(Page({{"q", "al"}}), Ids{id});
  EXPECT_EQ(Page({{"q", "alpha"}}), Ids{});  // the text index has not applied it yet

  ASSERT_TRUE(text_projector_.Start());
  ASSERT_TRUE(text_projector_.WaitFor(store_->Size(), milliseconds(5000)));
  EXPECT_EQ(Page({{"q", "alpha"}}), Ids{id});
  EXPECT_EQ(Page({{"q", "alpha"}, {"status", "draft"}}), Ids{id});
  EXPECT_EQ(Page({{"q", "omega"}}), Ids{});
}

TEST_F(ContractTextIndexTest, OnlyAWritersQWaitsForTheTextIndex) {
  ReadYourWrites read_your_writes(views_projector_, milliseconds(200), &text_projector_);
  ASSERT_TRUE(text_projector_.Start());
  ASSERT_TRUE(text_projector_.WaitFor(store_->Size(), milliseconds(5000)));
  text_projector_.Stop();  // from here on the text index stays behind

  script_.Create(testing::Client("cli_a1", "org_a"), testing::ServicesBody("Beta", {}),
                 "2026-01-10T10:00:00Z");
  read_your_writes.Wrote("cli_a1", "org_a", store_->Size());
  EXPECT_TRUE(read_your_writes.AwaitOwnWrites("cli_a1", "org_a", ReadsFrom::kViews));
  const Status q = read_your_writes.AwaitOwnWrites("cli_a1", "org_a", ReadsFrom::kViewsAndText);
  ASSERT_FALSE(q);
  EXPECT_EQ(q.error().code, ErrorCode::kUnavailable);
  // Another client wrote nothing since: its q does not wait.
  EXPECT_TRUE(read_your_writes.AwaitOwnWrites("cli_a2", "org_a", ReadsFrom::kViewsAndText));

  ASSERT_TRUE(text_projector_.Start());
  EXPECT_TRUE(read_your_writes.AwaitOwnWrites("cli_a1", "org_a", ReadsFrom::kViewsAndText));
}

TEST(ListScanTest, OnlyAQOfThreeCodePointsOrMoreReadsTheTextIndex) {
  EXPECT_FALSE(UsesTextIndex(*ParseListQuery(QueryParams{})));
  EXPECT_FALSE(UsesTextIndex(*ParseListQuery(QueryParams{{"q", "ab"}})));
  EXPECT_FALSE(UsesTextIndex(*ParseListQuery(QueryParams{{"q", "äö"}})));
  EXPECT_TRUE(UsesTextIndex(*ParseListQuery(QueryParams{{"q", "abc"}})));
  EXPECT_TRUE(UsesTextIndex(*ParseListQuery(QueryParams{{"q", "ärg"}, {"status", "sent"}})));
}

}  // namespace
}  // namespace esign::projections
