#include "http/router.h"

#include <gtest/gtest.h>

#include <vector>

namespace esign::http {
namespace {

using boost::beast::http::verb;

TEST(RouterTest, MatchesLiteralAndCapturedSegments) {
  Router<int> router;
  router.Add(verb::get, "/api/v1/contracts", 1);
  router.Add(verb::get, "/api/v1/contracts/{id}", 2);
  router.Add(verb::get, "/api/v1/contracts/{id}/documents/artifact-revisions/{revision}/download",
             3);

  auto list = router.Find(verb::get, "/api/v1/contracts");
  ASSERT_NE(list.target, nullptr);
  EXPECT_EQ(*list.target, 1);

  auto one = router.Find(verb::get, "/api/v1/contracts/ctr_123");
  ASSERT_NE(one.target, nullptr);
  EXPECT_EQ(*one.target, 2);
  EXPECT_EQ(one.params.Get("id"), "ctr_123");

  auto download =
      router.Find(verb::get, "/api/v1/contracts/ctr_1/documents/artifact-revisions/7/download");
  ASSERT_NE(download.target, nullptr);
  EXPECT_EQ(download.params.Get("id"), "ctr_1");
  EXPECT_EQ(download.params.Get("revision"), "7");
}

TEST(RouterTest, TellsUnknownPathFromWrongMethod) {
  Router<int> router;
  router.Add(verb::get, "/api/v1/contracts/{id}", 2);

  auto wrong_method = router.Find(verb::delete_, "/api/v1/contracts/ctr_1");
  EXPECT_EQ(wrong_method.target, nullptr);
  EXPECT_EQ(wrong_method.miss, Router<int>::Miss::kWrongMethod);

  auto no_path = router.Find(verb::get, "/api/v1/contracts/ctr_1/nothing");
  EXPECT_EQ(no_path.target, nullptr);
  EXPECT_EQ(no_path.miss, Router<int>::Miss::kNoPath);
}

TEST(RouterTest, EmptyCaptureDoesNotMatch) {
  Router<int> router;
  router.Add(verb::get, "/api/v1/contracts/{id}", 2);
  EXPECT_EQ(router.Find(verb::get, "/api/v1/contracts/").target, nullptr);
}

// The first route registered answers, whether its last segment is a literal or a capture.
TEST(RouterTest, TheFirstRouteRegisteredThatMatchesAnswers) {
  Router<int> router;
  router.Add(verb::get, "/api/v1/contracts/bulk", 1);
  router.Add(verb::get, "/api/v1/contracts/{id}", 2);
  router.Add(verb::get, "/api/v1/templates/{id}", 3);
  router.Add(verb::get, "/api/v1/templates/mine", 4);
  router.Add(verb::post, "/api/v1/templates/{id}", 5);
  router.Add(verb::put, "/api/v1/templates/mine", 6);

  EXPECT_EQ(*router.Find(verb::get, "/api/v1/contracts/bulk").target, 1);
  EXPECT_EQ(*router.Find(verb::get, "/api/v1/contracts/ctr_1").target, 2);
  EXPECT_EQ(*router.Find(verb::get, "/api/v1/templates/mine").target, 3);
  EXPECT_EQ(*router.Find(verb::put, "/api/v1/templates/mine").target, 6);
  EXPECT_EQ(*router.Find(verb::post, "/api/v1/templates/mine").target, 5);
  EXPECT_EQ(router.MethodsOf("/api/v1/templates/mine"),
            (std::vector<verb>{verb::get, verb::post, verb::put}));
  EXPECT_EQ(router.MethodsOf("/api/v1/templates/tpl_1"),
            (std::vector<verb>{verb::get, verb::post}));
  // Longer and shorter than every route.
  EXPECT_EQ(router.Find(verb::get, "/api/v1/contracts/ctr_1/a/b/c/d/e/f/g").target, nullptr);
  EXPECT_EQ(router.Find(verb::get, "/").target, nullptr);
  EXPECT_TRUE(router.MethodsOf("/api").empty());
}

}  // namespace
}  // namespace esign::http
