// Key building and text trigrams: the small pure pieces the views rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "projections/contract_index.h"
#include "projections/key_codec.h"
#include "projections/text_fold.h"

namespace esign::projections {
namespace {

TEST(KeyCodecTest, EscapesTheSeparatorSoPrefixesCannotCross) {
  EXPECT_EQ(EscapeKeyPart("org_1"), "org_1");
  EXPECT_EQ(EscapeKeyPart("ctr_01JD3V7Q2K"), "ctr_01JD3V7Q2K");
  EXPECT_EQ(EscapeKeyPart("a/b"), "a%2Fb");
  EXPECT_EQ(EscapeKeyPart("100%"), "100%25");
  EXPECT_EQ(EscapeKeyPart(std::string("x\0y\n", 4)), "x%00y%0A");
  // "a/" + anything of org "a/b" can never start with the prefix "a/" of org "a".
  EXPECT_FALSE(EscapeKeyPart("a/b").starts_with("a/"));
}

TEST(KeyCodecTest, HexKeepsNumericOrder) {
  EXPECT_EQ(HexU64(0), "0000000000000000");
  EXPECT_EQ(HexU64(255), "00000000000000ff");
  EXPECT_LT(HexU64(9), HexU64(10));
  EXPECT_EQ(ParseHexU64(HexU64(123456789)), 123456789u);
  EXPECT_FALSE(ParseHexU64("12"));
  EXPECT_FALSE(ParseHexU64("000000000000000g"));
}

TEST(KeyCodecTest, PrefixSuccessor) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor("a/"), "a0");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff", 2)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff\xff", 2)), "");
}

TEST(KeyCodecTest, AsciiLowerLeavesOtherBytes) {
  EXPECT_EQ(AsciiLower("MiXeD Case 123"), "mixed case 123");
  EXPECT_EQ(AsciiLower("\xC3\x84rger"), "\xC3\x84rger");
}

TEST(IndexedTrigramsTest, DistinctSortedAndNoneAcrossALineBreak) {
  using Views = std::vector<std::string_view>;
  EXPECT_EQ(IndexedTrigrams("abcab"), (Views{"abc", "bca", "cab"}));
  EXPECT_EQ(IndexedTrigrams("ab"), Views{});
  // A q is printable: the trigrams across the fields' line breaks are never asked for.
  EXPECT_EQ(IndexedTrigrams("abc\ndef"), (Views{"abc", "def"}));
  EXPECT_EQ(IndexedTrigrams("ab\ncd"), Views{});
  // Code points, not bytes: "Ã¤" is one.
  EXPECT_EQ(IndexedTrigrams("\xC3\xA4rg"), Views{"\xC3\xA4rg"});
  // Every trigram a query takes from a printable q is among them when the text holds q.
  const std::string text = FoldText("Mutual NDA: Acme\nAda Lovelace\nada@acme.example");
  const Views indexed = IndexedTrigrams(text);
  for (const std::string& trigram : Trigrams(FoldText("LOVELACE"))) {
    EXPECT_TRUE(std::binary_search(indexed.begin(), indexed.end(), trigram)) << trigram;
  }
}

// Records what WriteIndexChanges writes.
class RecordingBatch final : public ViewBatch {
 public:
  using ViewBatch::Put;
  void Put(std::string_view key, std::string_view /*value*/) override { puts.emplace(key); }
  void Delete(std::string_view key) override { deletes.emplace(key); }
  Result<std::optional<std::string>> Get(std::string_view /*key*/) const override {
    return std::nullopt;
  }
  std::set<std::string, std::less<>> puts;
  std::set<std::string, std::less<>> deletes;
};

TEST(WriteIndexChangesTest, WritesOnlyWhatChanged) {
  IndexEntry draft;
  draft.contract_id = "ctr_1";
  draft.controller = "org_a";
  draft.created_by = "cli_a";
  draft.roles = IndexEntry::Bit(AccessRole::kController);
  draft.created_at = 1;
  draft.text = "abcd";
  const std::map<std::string, IndexEntry> before = {{"org_a", draft}};
  // What each writer writes from `from` to `to`: the views' rows, and the text index's.
  const auto write = [](const std::map<std::string, IndexEntry>& from,
                        const std::map<std::string, IndexEntry>& to) {
    std::pair<RecordingBatch, RecordingBatch> out;
    WriteIndexChanges(from, to, out.first);
    WriteTextIndexChanges(from, to, out.second);
    return out;
  };

  const auto [created, created_text] = write({}, before);
  EXPECT_TRUE(created.deletes.empty());
  EXPECT_TRUE(created.puts.contains("g/org_a/ctr_1"));
  EXPECT_TRUE(created.puts.contains("gs/org_a/draft/ctr_1"));
  EXPECT_FALSE(created.puts.contains("gt/org_a/abc/ctr_1"));  // the text index's
  EXPECT_EQ(created_text.puts,
            (std::set<std::string, std::less<>>{"gt/org_a/abc/ctr_1", "gt/org_a/bcd/ctr_1"}));
  EXPECT_TRUE(created_text.deletes.empty());

  // A status change: the entry, the new status key and the old one deleted; no trigram.
  IndexEntry sent = draft;
  sent.status = ContractStatus::kSent;
  const auto [moved, moved_text] = write(before, {{"org_a", sent}});
  EXPECT_EQ(moved.puts,
            (std::set<std::string, std::less<>>{"g/org_a/ctr_1", "gs/org_a/sent/ctr_1"}));
  EXPECT_EQ(moved.deletes, (std::set<std::string, std::less<>>{"gs/org_a/draft/ctr_1"}));
  EXPECT_TRUE(moved_text.puts.empty());
  EXPECT_TRUE(moved_text.deletes.empty());

  // A text change: the entry, and only the trigrams that differ.
  IndexEntry renamed = draft;
  renamed.text = "bcde";
  const auto [retexted, retexted_text] = write(before, {{"org_a", renamed}});
  EXPECT_EQ(retexted.puts, (std::set<std::string, std::less<>>{"g/org_a/ctr_1"}));
  EXPECT_TRUE(retexted.deletes.empty());
  EXPECT_EQ(retexted_text.puts, (std::set<std::string, std::less<>>{"gt/org_a/cde/ctr_1"}));
  EXPECT_EQ(retexted_text.deletes, (std::set<std::string, std::less<>>{"gt/org_a/abc/ctr_1"}));

  // An organization that loses its grant loses every row.
  const auto [gone, gone_text] = write(before, {});
  EXPECT_TRUE(gone.puts.empty());
  EXPECT_TRUE(gone.deletes.contains("g/org_a/ctr_1"));
  EXPECT_EQ(gone.deletes.size(), created.puts.size());
  EXPECT_EQ(gone_text.deletes, created_text.puts);
}

}  // namespace
}  // namespace esign::projections
