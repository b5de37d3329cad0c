// ChunkedLogVerifier folds each full chunk as one subtree hashed on the chunk's thread; its
// findings and root must be exactly those of LogVerifier fed one position at a time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eventstore/event_record.h"
#include "eventstore/verify_log.h"

namespace esign::eventstore {
namespace {

std::string RecordAt(uint64_t position) {
  EventRecord record;
  record.position = GlobalPosition(position);
  record.stream_id = "s-" + std::to_string(position % 7);
  record.version = StreamVersion(position / 7 + 1);
  record.event_id = "evt_" + std::to_string(position);
  record.type = "test.event";
  record.data = R"({"n":)" + std::to_string(position) + "}";
  return CanonicalBytes(record);
}

TEST(ChunkedLogVerifierTest, FindsWhatLogVerifierFindsAcrossWholeAndPartialChunks) {
  const uint64_t size = 3 * kVerifyChunkPositions + 100;
  const std::vector<uint64_t> bad = {5000, 5001, 3 * kVerifyChunkPositions + 7};
  std::vector<std::string> stored;
  for (uint64_t position = 0; position < size; ++position) stored.push_back(RecordAt(position));
  for (const uint64_t position : bad) stored[position] = RecordAt(position + 1);

  const VerifyOptions options;
  LogVerifier one_by_one(options, size);
  ChunkedLogVerifier chunked(options, size, 2);
  VerifyChunk chunk;
  for (uint64_t position = 0; position < size; ++position) {
    one_by_one.Add(position, std::string_view(stored[position]), Hash{});
    chunk.AddBytes(stored[position], Hash{});
    if (chunk.entries.size() == kVerifyChunkPositions) {
      chunked.Add(std::move(chunk));
      chunk = VerifyChunk{.first = position + 1};
    }
  }
  chunked.Add(std::move(chunk));
  const LogVerification expected = std::move(one_by_one).Finish();
  const LogVerification actual = std::move(chunked).Finish();

  EXPECT_FALSE(actual.ok);
  EXPECT_EQ(actual.root, expected.root);
  EXPECT_EQ(actual.first_bad_position, std::optional<uint64_t>(5000));
  EXPECT_EQ(actual.problems, expected.problems);
  EXPECT_EQ(actual.problems.size(), bad.size());
}

}  // namespace
}  // namespace esign::eventstore
