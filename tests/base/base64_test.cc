// Base64 in both alphabets, with and without padding: RFC 4648 vectors, and the strict decoding
// that gives each byte string one text.
#include "base/base64.h"

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

TEST(Base64Test, EncodesTheRfcVectorsWithPadding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("\xfb\xff\xbf"), "+/+/");
  for (const char* text : {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"}) {
    const auto bytes = Base64Decode(text);
    ASSERT_TRUE(bytes) << text;
    EXPECT_EQ(Base64Encode(*bytes), text);
  }
}

TEST(Base64Test, TheOtherTwoFormsRoundTrip) {
  const Base64Form url_padded{Base64Form::Alphabet::kUrlSafe, true};
  const Base64Form standard_unpadded{Base64Form::Alphabet::kStandard, false};
  EXPECT_EQ(EncodeBase64("\xfb\xff", url_padded), "-_8=");
  EXPECT_EQ(EncodeBase64("\xfb\xff", standard_unpadded), "+/8");
  EXPECT_EQ(DecodeBase64("-_8=", url_padded), "\xfb\xff");
  EXPECT_EQ(DecodeBase64("+/8", standard_unpadded), "\xfb\xff");
  EXPECT_FALSE(DecodeBase64("+/8=", url_padded));
  EXPECT_FALSE(DecodeBase64("-_8", standard_unpadded));
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (const Base64Form form : {kBase64Standard, kBase64Url, url_padded, standard_unpadded}) {
    for (size_t length = 0; length <= 5; ++length) {
      const std::string part = bytes.substr(250 - length, length);
      EXPECT_EQ(DecodeBase64(EncodeBase64(part, form), form), part);
    }
  }
}

TEST(Base64Test, RefusesEverythingButTheCanonicalPaddedText) {
  EXPECT_FALSE(Base64Decode("Zg"));        // padding missing
  EXPECT_FALSE(Base64Decode("Zg="));       // padding short
  EXPECT_FALSE(Base64Decode("Z==="));      // three padding characters
  EXPECT_FALSE(Base64Decode("===="));      // a group of padding only
  EXPECT_FALSE(Base64Decode("Zg==Zg=="));  // padding inside
  EXPECT_FALSE(Base64Decode("Zh=="));      // non-zero trailing bits
  EXPECT_FALSE(Base64Decode("-_-_"));      // the URL-safe alphabet
  EXPECT_FALSE(Base64Decode("Zm9v\n"));    // white space
  EXPECT_FALSE(Base64Decode(" Zm9v"));
  EXPECT_EQ(Base64Decode("+/+/"), "\xfb\xff\xbf");
}

}  // namespace
}  // namespace esign
