// Cursors: round trip, and every way a cursor may be refused.
#include "projections/cursor.h"

#include "base/base64.h"

#include <gtest/gtest.h>

namespace esign::projections {
namespace {

TEST(CursorTest, RoundTrip) {
  CursorCodec codec("k3y-of-the-service-0123456789abcdef");
  const std::string cursor = codec.Encode("ctr_000042", "filters");
  auto position = codec.Decode(cursor, "filters");
  ASSERT_TRUE(position) << position.error().message;
  EXPECT_EQ(*position, "ctr_000042");
}

TEST(CursorTest, OtherFiltersAreRefused) {
  CursorCodec codec("key");
  const std::string cursor = codec.Encode("ctr_000042", "status=sent");
  auto position = codec.Decode(cursor, "status=draft");
  ASSERT_FALSE(position);
  EXPECT_EQ(position.error().code, ErrorCode::kInvalidCursor);
  ASSERT_EQ(position.error().details.size(), 1u);
  EXPECT_EQ(position.error().details[0].field, "cursor");
}

TEST(CursorTest, AnotherKeyIsRefused) {
  const std::string cursor = CursorCodec("key one").Encode("ctr_1", "f");
  EXPECT_FALSE(CursorCodec("key two").Decode(cursor, "f"));
}

TEST(CursorTest, EveryAlteredCharacterIsRefused) {
  CursorCodec codec("key");
  const std::string cursor = codec.Encode("ctr_000042", "f");
  for (size_t i = 0; i < cursor.size(); ++i) {
    std::string altered = cursor;
    altered[i] = altered[i] == 'A' ? 'B' : 'A';
    auto position = codec.Decode(altered, "f");
    ASSERT_FALSE(position) << i;
    EXPECT_EQ(position.error().code, ErrorCode::kInvalidCursor);
  }
}

TEST(CursorTest, ForgedPositionIsRefused) {
  CursorCodec codec("key");
  // A cursor built by hand for another position, with a MAC that is not the service's.
  std::string raw(1, '\x01');
  raw += "ctr_999999";
  raw += std::string(32, 'x');
  auto position = codec.Decode(Base64UrlEncode(raw), "f");
  ASSERT_FALSE(position);
  EXPECT_EQ(position.error().code, ErrorCode::kInvalidCursor);
  EXPECT_FALSE(codec.Decode("", "f"));
  EXPECT_FALSE(codec.Decode("not a cursor!", "f"));
}

}  // namespace
}  // namespace esign::projections
