// Reading a grant row for one contract's read: the same version and roles as the full decode,
// whatever the order of the members, and corruption still refused.
#include "projections/grant_access.h"

#include <gtest/gtest.h>

#include "projections/contract_index.h"

namespace esign::projections {
namespace {

IndexEntry Entry() {
  IndexEntry entry;
  entry.contract_id = "ctr_01M8CDTR4YYAFDWKV3RT2MBNKR";
  entry.version = 12;
  entry.roles = IndexEntry::Bit(AccessRole::kController) | IndexEntry::Bit(AccessRole::kViewer);
  entry.created_at = 1'800'000'000'000'000;
  entry.controller = "org_a";
  entry.counterparties = {"org_b", "org_\"c\""};
  entry.text = "mutual nda\nada lovelace\n\"version\":99";
  return entry;
}

TEST(GrantAccessTest, ReadsWhatTheFullDecodeReads) {
  const std::string row = EncodeIndexEntry(Entry());
  auto access = ReadGrantAccess(row);
  ASSERT_TRUE(access) << access.error().message;
  auto decoded = DecodeIndexEntry(row);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(access->version, decoded->version);
  EXPECT_EQ(access->roles, decoded->roles);
  EXPECT_EQ(access->version, 12u);
}

TEST(GrantAccessTest, OnlyTopLevelMembersCount) {
  auto access = ReadGrantAccess(
      R"({"nested":{"version":7,"roles":7},"list":[{"roles":5}],"roles":2,"version":3})");
  ASSERT_TRUE(access);
  EXPECT_EQ(access->version, 3u);
  EXPECT_EQ(access->roles, 2u);
}

TEST(GrantAccessTest, ARowWithoutThemIsCorrupt) {
  for (std::string_view row : {R"({"id":"ctr_1"})", "not json", "", R"({"version":-1,"roles":1})",
                               R"({"version":"1","roles":1})"}) {
    auto access = ReadGrantAccess(row);
    ASSERT_FALSE(access) << row;
    EXPECT_EQ(access.error().code, ErrorCode::kCorruption) << row;
  }
}

}  // namespace
}  // namespace esign::projections
