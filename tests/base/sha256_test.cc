// SHA-256 and hex: the FIPS 180-4 known answers and the strict reading of digests.
#include "base/sha256.h"

#include <gtest/gtest.h>

#include <cctype>

#include "base/hex.h"

namespace esign {
namespace {

TEST(Sha256Test, KnownAnswers) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(ToHex(Sha256("abc")), Sha256Hex("abc"));
}

TEST(Sha256Test, ConcatHashesTheJoinedParts) {
  EXPECT_EQ(Sha256Concat({"a", "", "bc"}), Sha256("abc"));
  EXPECT_EQ(Sha256Concat({}), Sha256(""));
  EXPECT_EQ(Sha256Concat({std::string_view("\0", 1), "abc"}), Sha256(std::string("\0abc", 4)));
}

TEST(Sha256Test, HexRoundTripAndRejection) {
  const Sha256Digest digest = Sha256("x");
  EXPECT_EQ(Sha256FromHex(ToHex(digest)), digest);
  std::string upper = ToHex(digest);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(Sha256FromHex(upper), digest);
  EXPECT_FALSE(Sha256FromHex(""));
  EXPECT_FALSE(Sha256FromHex(ToHex(digest).substr(1)));
  EXPECT_FALSE(Sha256FromHex(ToHex(digest) + "0"));
  EXPECT_FALSE(Sha256FromHex(ToHex(digest) + "00"));
  EXPECT_FALSE(Sha256FromHex("g" + ToHex(digest).substr(1)));
  EXPECT_EQ(DigestBytes(digest).size(), 32u);
}

TEST(HexTest, LowercaseOutEitherCaseIn) {
  EXPECT_EQ(ToHex(std::string_view("\x00\x7f\x80\xff", 4)), "007f80ff");
  EXPECT_EQ(ToHex(""), "");
  EXPECT_EQ(FromHex("007F80ff"), std::string("\x00\x7f\x80\xff", 4));
  EXPECT_EQ(FromHex(""), "");
  EXPECT_FALSE(FromHex("0"));
  EXPECT_FALSE(FromHex("0x"));
  EXPECT_FALSE(FromHex(" 0"));
}

}  // namespace
}  // namespace esign
