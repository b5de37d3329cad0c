// The status row's header: written and read back for each organization, organizations that
// need escaping, and rows it must not read (older rows without a header, damaged headers).
#include "projections/status_row.h"

#include <gtest/gtest.h>

namespace esign::projections {
namespace {

TEST(StatusRowTest, ReadsTheVersionAndEachOrganizationsRoles) {
  const std::string json = R"({"id":"ctr_1","status":"sent","version":7})";
  const std::string row = EncodeStatusRow(7, {{"org_a", 1}, {"org_b", 4}, {"org/c%\n", 2}}, json);
  for (const auto& [org, roles] : std::map<std::string, uint8_t>{
           {"org_a", 1}, {"org_b", 4}, {"org/c%\n", 2}, {"org_c", 0}, {"org", 0}, {"", 0}}) {
    const std::optional<StatusRowRead> read = ReadStatusRow(row, org);
    ASSERT_TRUE(read) << org;
    EXPECT_EQ(read->version, 7u);
    EXPECT_EQ(read->roles, roles) << org;
    EXPECT_EQ(row.substr(read->json_offset), json);
  }
}

TEST(StatusRowTest, AContractWithoutGrantsIsReadWithNoRoles) {
  const std::string row = EncodeStatusRow(1, {}, "{}");
  EXPECT_EQ(row, "v1\n{}");
  const std::optional<StatusRowRead> read = ReadStatusRow(row, "org_a");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->roles, 0);
  EXPECT_EQ(read->json_offset, 3u);
}

TEST(StatusRowTest, ARowWithoutAReadableHeaderIsNotRead) {
  for (std::string_view row : {R"({"id":"ctr_1","status":"draft"})", "", "v", "v1", "vx\n{}",
                               "v1/org_a\n{}", "v1/org_a/x\n{}", "v1/org_a/256\n{}",
                               "v1/org_a/1/\n{}", "v-1\n{}", "v18446744073709551616\n{}"}) {
    EXPECT_FALSE(ReadStatusRow(row, "org_a")) << row;
  }
}

}  // namespace
}  // namespace esign::projections
