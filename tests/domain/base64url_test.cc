// Base64url: RFC 4648 vectors, and the strict decoding that gives each byte string one text.
#include "domain/base64url.h"

#include <gtest/gtest.h>

namespace esign {
namespace {

TEST(Base64UrlTest, EncodesTheRfcVectorsWithoutPadding) {
  EXPECT_EQ(Base64UrlEncode(""), "");
  EXPECT_EQ(Base64UrlEncode("f"), "Zg");
  EXPECT_EQ(Base64UrlEncode("fo"), "Zm8");
  EXPECT_EQ(Base64UrlEncode("foo"), "Zm9v");
  EXPECT_EQ(Base64UrlEncode("foob"), "Zm9vYg");
  EXPECT_EQ(Base64UrlEncode("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64UrlEncode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64UrlEncode("\xfb\xff\xbf"), "-_-_");
}

TEST(Base64UrlTest, RoundTripsEveryByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t length = 0; length <= bytes.size(); length += 37) {
    const std::string part = bytes.substr(0, length);
    EXPECT_EQ(Base64UrlDecode(Base64UrlEncode(part)), part);
  }
}

TEST(Base64UrlTest, RefusesEverythingButTheCanonicalText) {
  EXPECT_FALSE(Base64UrlDecode("Zg=="));    // padding
  EXPECT_FALSE(Base64UrlDecode("Zm9v+/"));  // the standard alphabet
  EXPECT_FALSE(Base64UrlDecode("Zm9vY"));   // a length no byte string has
  EXPECT_FALSE(Base64UrlDecode("Zh"));      // non-zero trailing bits ("Zg" is canonical)
  EXPECT_FALSE(Base64UrlDecode("Zm9 v"));   // white space
  EXPECT_FALSE(Base64UrlDecode("Zm9v\n"));
  EXPECT_TRUE(Base64UrlDecode("Zg"));
}

}  // namespace
}  // namespace esign
