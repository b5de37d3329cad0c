// HMAC-SHA256: the RFC 4231 test cases, and the keyed form equal to the one-shot form.
#include "base/hmac.h"

#include <gtest/gtest.h>

#include <string>

#include "base/hex.h"

namespace esign {
namespace {

TEST(HmacSha256Test, Rfc4231TestCase1) {
  const std::string key(20, '\x0b');
  EXPECT_EQ(ToHex(HmacSha256(key, "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(HmacSha256Test, Rfc4231TestCase2) {
  EXPECT_EQ(ToHex(HmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(HmacSha256Test, Rfc4231TestCase6KeyLongerThanABlock) {
  const std::string key(131, '\xaa');
  EXPECT_EQ(ToHex(HmacSha256(key, "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(HmacSha256Test, KeyedFormSignsEveryMessageAsTheOneShotForm) {
  const std::string key(32, '\x42');
  const HmacSha256Key keyed(key);
  for (const std::string& message :
       {std::string(), std::string("a"), std::string(64, 'b'), std::string(1000, 'c')}) {
    EXPECT_EQ(keyed.Sign(message), HmacSha256(key, message)) << message.size();
  }
  EXPECT_NE(keyed.Sign("a"), HmacSha256(std::string(32, '\x43'), "a"));
}

}  // namespace
}  // namespace esign
