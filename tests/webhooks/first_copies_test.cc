#include "webhooks/first_copies.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace esign::webhooks {
namespace {

TEST(FirstCopiesTest, AnIdIsTakenOnceAndNotAfterItIsForgotten) {
  FirstCopies copies;
  copies.Add({"dlv_a", "dlv_b", "dlv_c", "dlv_d"});
  EXPECT_TRUE(copies.Take("dlv_a"));
  EXPECT_FALSE(copies.Take("dlv_a"));  // a second copy reads its record
  EXPECT_FALSE(copies.Take("dlv_never_added"));

  copies.Forget("dlv_b");  // settled without an attempt
  copies.Forget(
      std::set<std::string>{"dlv_c", "dlv_unknown"});  // its partition went to another member
  EXPECT_FALSE(copies.Take("dlv_b"));
  EXPECT_FALSE(copies.Take("dlv_c"));
  EXPECT_TRUE(copies.Take("dlv_d"));
}

}  // namespace
}  // namespace esign::webhooks
