// The entries of the replicated log and the fence every node runs over them.
#include <gtest/gtest.h>

#include "eventstore/log_entry.h"
#include "eventstore/log_fence.h"

namespace esign::eventstore {
namespace {

const std::string kKey(32, 'k');

Hash HashOf(char c) {
  Hash hash;
  hash.fill(static_cast<uint8_t>(c));
  return hash;
}

LogEntry Batch(uint64_t epoch, uint64_t size, std::vector<std::string> records) {
  LogEntry entry{.kind = LogEntryKind::kBatch, .epoch = epoch, .size = size, .root = HashOf('r')};
  entry.append_sizes = {static_cast<uint32_t>(records.size())};
  entry.records = std::move(records);
  return entry;
}

LogEntry Claim(uint64_t epoch, uint64_t size, const Hash& root) {
  return LogEntry{.kind = LogEntryKind::kClaim,
                  .epoch = epoch,
                  .size = size,
                  .root = root,
                  .bytes = "http://node-b:8080\nnonce"};
}

TEST(LogEntryTest, EveryKindReadsBackAsWritten) {
  LogEntry batch = Batch(3, 17, {"{\"a\":1}", "{\"b\":2}", ""});
  batch.append_sizes = {2, 1};
  const Result<LogEntry> read = DecodeLogEntry(EncodeLogEntry(batch, kKey), kKey);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->kind, LogEntryKind::kBatch);
  EXPECT_EQ(read->epoch, 3u);
  EXPECT_EQ(read->size, 17u);
  EXPECT_EQ(read->root, HashOf('r'));
  EXPECT_EQ(read->append_sizes, (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(read->records, batch.records);

  const LogEntry blob{.kind = LogEntryKind::kBlob,
                      .epoch = 1,
                      .size = 4,
                      .sha256 = std::string(64, 'a'),
                      .chunk = 1,
                      .chunks = 3,
                      .bytes = std::string("\0pdf", 4)};
  const Result<LogEntry> blob_read = DecodeLogEntry(EncodeLogEntry(blob, kKey), kKey);
  ASSERT_TRUE(blob_read) << blob_read.error().message;
  EXPECT_EQ(blob_read->sha256, blob.sha256);
  EXPECT_EQ(blob_read->chunk, 1u);
  EXPECT_EQ(blob_read->chunks, 3u);
  EXPECT_EQ(blob_read->bytes, blob.bytes);

  const Result<LogEntry> claim =
      DecodeLogEntry(EncodeLogEntry(Claim(2, 9, HashOf('x')), kKey), kKey);
  ASSERT_TRUE(claim) << claim.error().message;
  EXPECT_EQ(claim->kind, LogEntryKind::kClaim);
  EXPECT_EQ(claim->root, HashOf('x'));
  EXPECT_EQ(claim->bytes, "http://node-b:8080\nnonce");

  const LogEntry head{.kind = LogEntryKind::kHead, .epoch = 2, .size = 9, .bytes = "{\"size\":9}"};
  const Result<LogEntry> head_read = DecodeLogEntry(EncodeLogEntry(head, kKey), kKey);
  ASSERT_TRUE(head_read) << head_read.error().message;
  EXPECT_EQ(head_read->bytes, head.bytes);
}

TEST(LogEntryTest, AnEntryUnderAnotherKeyOrChangedIsRefused) {
  std::string bytes = EncodeLogEntry(Batch(1, 0, {"{}"}), kKey);
  const Result<LogEntry> other_key = DecodeLogEntry(bytes, std::string(32, 'o'));
  ASSERT_FALSE(other_key);
  EXPECT_EQ(other_key.error().code, ErrorCode::kUnauthenticated);
  bytes[20] ^= 1;
  const Result<LogEntry> changed = DecodeLogEntry(bytes, kKey);
  ASSERT_FALSE(changed);
  EXPECT_EQ(changed.error().code, ErrorCode::kUnauthenticated);
  EXPECT_FALSE(DecodeLogEntry("CLOG", kKey));
  EXPECT_FALSE(DecodeLogEntry(std::string(100, 'x'), kKey));
}

TEST(LogEntryTest, CountsThatDoNotAddUpAreMalformedEvenUnderTheRightKey) {
  LogEntry batch = Batch(1, 0, {"{}", "{}"});
  batch.append_sizes = {1};  // one record too many
  const Result<LogEntry> read = DecodeLogEntry(EncodeLogEntry(batch, kKey), kKey);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, ErrorCode::kValidationFailed);
}

TEST(LogFenceTest, AClaimTakesOverOnlyFromTheLogAsItStands) {
  LogFence fence{.epoch = 0, .size = 0, .root = HashOf('e')};
  EXPECT_FALSE(fence.Admits(Batch(0, 0, {"{}"}))) << "nothing counts before the first claim";
  EXPECT_FALSE(fence.Admits(Claim(1, 0, HashOf('z')))) << "a claim on another root";
  EXPECT_FALSE(fence.Admits(Claim(1, 5, HashOf('e')))) << "a claim on another size";
  ASSERT_TRUE(fence.Admits(Claim(1, 0, HashOf('e'))));
  fence.Apply(Claim(1, 0, HashOf('e')));
  EXPECT_EQ(fence.epoch, 1u);

  const LogEntry first = Batch(1, 0, {"{}", "{}"});
  ASSERT_TRUE(fence.Admits(first));
  fence.Apply(first);
  EXPECT_EQ(fence.size, 2u);
  EXPECT_EQ(fence.root, HashOf('r'));
  EXPECT_FALSE(fence.Admits(Batch(1, 0, {"{}"}))) << "a batch that does not start at the size";

  // Two claims on the same base: the first counts, the second finds its epoch taken.
  ASSERT_TRUE(fence.Admits(Claim(2, 2, HashOf('r'))));
  fence.Apply(Claim(2, 2, HashOf('r')));
  EXPECT_FALSE(fence.Admits(Claim(2, 2, HashOf('r'))));
  // The old writer's next batch, and its blobs and heads, count no more.
  EXPECT_FALSE(fence.Admits(Batch(1, 2, {"{}"})));
  EXPECT_FALSE(fence.Admits(LogEntry{.kind = LogEntryKind::kBlob, .epoch = 1, .size = 2}));
  EXPECT_TRUE(fence.Admits(LogEntry{.kind = LogEntryKind::kBlob, .epoch = 2, .size = 2}));
}

}  // namespace
}  // namespace esign::eventstore
