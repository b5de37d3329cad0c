#include "http/plain_target.h"

#include <gtest/gtest.h>

#include <boost/url/parse.hpp>
#include <string>

namespace esign::http {
namespace {

TEST(PlainTargetTest, TakesTheUsualApiPaths) {
  EXPECT_TRUE(IsPlainPathTarget("/api/v1/contracts/ctr_01M8CDTR4YYAFDWKV3RT2MBNKR/status"));
  EXPECT_TRUE(IsPlainPathTarget("/api/v1/contracts"));
  EXPECT_TRUE(IsPlainPathTarget("/"));
  EXPECT_TRUE(IsPlainPathTarget("/a.b-c_d~e/"));
}

TEST(PlainTargetTest, LeavesEverythingElseToTheGeneralParse) {
  EXPECT_FALSE(IsPlainPathTarget(""));
  EXPECT_FALSE(IsPlainPathTarget("api/v1"));
  EXPECT_FALSE(IsPlainPathTarget("/api/v1/contracts?limit=2"));
  EXPECT_FALSE(IsPlainPathTarget("/api/v1/contracts/ctr%5F1"));
  EXPECT_FALSE(IsPlainPathTarget("//api/v1"));
  EXPECT_FALSE(IsPlainPathTarget("/api//v1"));
  EXPECT_FALSE(IsPlainPathTarget("/api/v1:x"));
  EXPECT_FALSE(IsPlainPathTarget("/api/v1 x"));
  EXPECT_FALSE(IsPlainPathTarget("http://host/api"));
  EXPECT_FALSE(IsPlainPathTarget("*"));
}

// Every target the fast path takes parses as origin-form to itself, with no parameters: every
// string of up to five characters over an alphabet of path characters and delimiters.
TEST(PlainTargetTest, AgreesWithTheOriginFormParse) {
  const std::string alphabet = "/aZ9.-_~%?:@ ";
  size_t taken = 0;
  std::string target;
  auto visit = [&](auto& self, size_t length) -> void {
    if (IsPlainPathTarget(target)) {
      ++taken;
      auto parsed = boost::urls::parse_origin_form(target);
      ASSERT_TRUE(parsed) << target;
      EXPECT_EQ(parsed->encoded_path(), target);
      EXPECT_EQ(parsed->path(), target);
      EXPECT_FALSE(parsed->has_query()) << target;
      EXPECT_TRUE(parsed->params().empty()) << target;
    }
    if (length == 5) return;
    for (const char c : alphabet) {
      target.push_back(c);
      self(self, length + 1);
      target.pop_back();
    }
  };
  visit(visit, 0);
  EXPECT_GT(taken, 1000u);
}

}  // namespace
}  // namespace esign::http
