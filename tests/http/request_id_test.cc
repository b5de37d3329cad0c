// New request ids: the shape of every id of the service, and no two alike, from any thread.
#include "http/request_id.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace esign::http {
namespace {

TEST(RequestIdTest, ShapedLikeTheServicesIds) {
  const std::string id = NewRequestId();
  ASSERT_EQ(id.size(), 4u + 26u) << id;
  EXPECT_TRUE(id.starts_with("req_"));
  EXPECT_EQ(id.find_first_not_of("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 4), std::string::npos) << id;
}

TEST(RequestIdTest, NoTwoAlikeAcrossThreads) {
  constexpr int kThreads = 4;
  constexpr int kEach = 20000;
  std::vector<std::vector<std::string>> made(kThreads);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&made, t] {
      for (int i = 0; i < kEach; ++i) made[t].push_back(NewRequestId());
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<std::string> distinct;
  for (const auto& ids : made) distinct.insert(ids.begin(), ids.end());
  EXPECT_EQ(distinct.size(), static_cast<size_t>(kThreads * kEach));
}

TEST(RequestIdTest, ConsecutiveIdsDoNotReadAsASequence) {
  const std::string a = NewRequestId();
  const std::string b = NewRequestId();
  // The last 8 characters come from the permuted counter: consecutive counters differ in many.
  int differing = 0;
  for (size_t i = a.size() - 8; i < a.size(); ++i) differing += a[i] != b[i] ? 1 : 0;
  EXPECT_GE(differing, 4) << a << " " << b;
}

TEST(RequestIdTest, EchoesTheCallersUpToTheLimit) {
  EXPECT_EQ(RequestIdFor("req_mine"), "req_mine");
  EXPECT_TRUE(RequestIdFor("").starts_with("req_"));
  const std::string longest(kMaxRequestIdLength, 'x');
  EXPECT_EQ(RequestIdFor(longest), longest);
  EXPECT_NE(RequestIdFor(longest + "x"), longest + "x");
}

}  // namespace
}  // namespace esign::http
