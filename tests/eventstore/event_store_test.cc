// The behaviour every EventStore promises, run against both implementations.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "base/sha256.h"
#include "eventstore/verify_log.h"
#include "tests/eventstore/store_test_support.h"

namespace esign::eventstore {
namespace {

using namespace std::chrono_literals;
using testing::Event;
using testing::Events;
using testing::ReadEverything;
using testing::RecomputedRoot;

template <class Harness>
class EventStoreTest : public testing::OpenStoreTest<Harness> {
 protected:
  AppendResult MustAppend(std::string_view stream, std::vector<NewEvent> events,
                          ExpectedVersion expected = ExpectedVersion::Any()) {
    Result<AppendResult> result = this->store_->Append(stream, expected, std::move(events));
    EXPECT_TRUE(result) << result.error().message;
    return result.value_or(AppendResult{});
  }
};

TYPED_TEST_SUITE(EventStoreTest, testing::StoreHarnesses, testing::HarnessNames);

TYPED_TEST(EventStoreTest, AssignsDensePositionsAndStreamVersions) {
  const AppendResult a = this->MustAppend("stream-a", Events("a1", 3), ExpectedVersion::NoStream());
  const AppendResult b = this->MustAppend("stream-b", Events("b1", 2), ExpectedVersion::NoStream());
  const AppendResult c = this->MustAppend("stream-a", Events("a2", 1));
  EXPECT_EQ(a.first_position, GlobalPosition(0));
  EXPECT_EQ(a.version, StreamVersion(3));
  EXPECT_EQ(a.count, 3u);
  EXPECT_FALSE(a.replayed);
  EXPECT_EQ(b.first_position, GlobalPosition(3));
  EXPECT_EQ(b.version, StreamVersion(2));
  EXPECT_EQ(c.first_position, GlobalPosition(5));
  EXPECT_EQ(c.version, StreamVersion(4));
  EXPECT_EQ(this->store_->Size(), 6u);

  const std::vector<EventRecord> records = ReadEverything(*this->store_);
  ASSERT_EQ(records.size(), 6u);
  const std::vector<std::pair<std::string, uint64_t>> expected = {{"stream-a", 1}, {"stream-a", 2},
                                                                  {"stream-a", 3}, {"stream-b", 1},
                                                                  {"stream-b", 2}, {"stream-a", 4}};
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].position, GlobalPosition(i));
    EXPECT_EQ(records[i].stream_id, expected[i].first);
    EXPECT_EQ(records[i].version, StreamVersion(expected[i].second));
    EXPECT_EQ(records[i].type, "test.happened");
    EXPECT_EQ(records[i].data, R"({"n":1})");
    EXPECT_EQ(records[i].actor.client_id, "cli_test");
    EXPECT_GT(records[i].recorded_at_us, 0);
    if (i > 0) {
      EXPECT_GE(records[i].recorded_at_us, records[i - 1].recorded_at_us);
    }
  }
  EXPECT_EQ(records[0].event_id, "a1-0");
  EXPECT_EQ(records[5].event_id, "a2-0");
  EXPECT_EQ(this->store_->CurrentVersion("stream-a").value(), StreamVersion(4));
  EXPECT_EQ(this->store_->CurrentVersion("stream-b").value(), StreamVersion(2));
  EXPECT_EQ(this->store_->CurrentVersion("stream-none").value(), StreamVersion(0));
}

TYPED_TEST(EventStoreTest, NoStreamRejectsAnExistingStream) {
  this->MustAppend("s", Events("e1", 1), ExpectedVersion::NoStream());
  const Result<AppendResult> again =
      this->store_->Append("s", ExpectedVersion::NoStream(), Events("e2", 1));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kStreamVersionConflict);
  EXPECT_EQ(ToString(again.error().code), "STREAM_VERSION_CONFLICT");
  EXPECT_EQ(this->store_->Size(), 1u);
  // A stream id that is a prefix of another is its own stream.
  this->MustAppend("s-other", Events("e3", 1), ExpectedVersion::NoStream());
}

TYPED_TEST(EventStoreTest, ExactVersionMustMatch) {
  this->MustAppend("s", Events("e1", 1), ExpectedVersion::Exactly(StreamVersion(0)));
  this->MustAppend("s", Events("e2", 2), ExpectedVersion::Exactly(StreamVersion(1)));
  for (const uint64_t wrong : {0, 1, 2, 4, 100}) {
    const Result<AppendResult> stale =
        this->store_->Append("s", ExpectedVersion::Exactly(StreamVersion(wrong)), Events("x", 1));
    ASSERT_FALSE(stale) << wrong;
    EXPECT_EQ(stale.error().code, ErrorCode::kStreamVersionConflict);
  }
  EXPECT_EQ(
      this->MustAppend("s", Events("e3", 1), ExpectedVersion::Exactly(StreamVersion(3))).version,
      StreamVersion(4));
  EXPECT_EQ(this->store_->Size(), 4u);
}

TYPED_TEST(EventStoreTest, AnyVersionAlwaysAppends) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(this->MustAppend("s", Events("e" + std::to_string(i), 1)).version,
              StreamVersion(i + 1));
  }
}

TYPED_TEST(EventStoreTest, InvalidAppendsAreRejected) {
  auto code_of = [&](std::string_view stream, std::vector<NewEvent> events) {
    const Result<AppendResult> result =
        this->store_->Append(stream, ExpectedVersion::Any(), std::move(events));
    return result ? std::optional<ErrorCode>() : std::optional(result.error().code);
  };
  EXPECT_EQ(code_of("s", {}), ErrorCode::kValidationFailed);
  EXPECT_EQ(code_of("s", {Event("")}), ErrorCode::kValidationFailed);
  EXPECT_EQ(code_of("s", {Event("dup"), Event("dup")}), ErrorCode::kValidationFailed);
  EXPECT_EQ(code_of(std::string_view("a\0b", 3), {Event("x")}), ErrorCode::kValidationFailed);
  // Data the log could not read back.
  EXPECT_EQ(code_of("s", {Event("x", "[1]")}), ErrorCode::kValidationFailed);
  EXPECT_EQ(code_of("s", {Event("x", "{\"a\":")}), ErrorCode::kValidationFailed);
  EXPECT_EQ(code_of("s", {Event("x", " {}")}), ErrorCode::kValidationFailed);
  EXPECT_EQ(this->store_->Size(), 0u);
}

TYPED_TEST(EventStoreTest, RetryReturnsTheOriginalAppendAndWritesNothing) {
  const AppendResult original =
      this->MustAppend("s", {Event("evt-1"), Event("evt-2")}, ExpectedVersion::NoStream());
  this->MustAppend("s", Events("later", 2));
  const uint64_t size = this->store_->Size();
  const Hash root = this->store_->ledger().Root(size).value();

  // The retry carries the expectation of the first attempt, which no longer holds: still a replay.
  const Result<AppendResult> retry =
      this->store_->Append("s", ExpectedVersion::NoStream(), {Event("evt-1"), Event("evt-2")});
  ASSERT_TRUE(retry) << retry.error().message;
  EXPECT_TRUE(retry->replayed);
  EXPECT_EQ(retry->first_position, original.first_position);
  EXPECT_EQ(retry->version, original.version);
  EXPECT_EQ(retry->count, 2u);
  EXPECT_EQ(this->store_->Size(), size);
  EXPECT_EQ(this->store_->ledger().Root(size).value(), root);
  EXPECT_EQ(this->store_->CurrentVersion("s").value(), StreamVersion(4));

  // A leading part of an earlier append is that append too.
  const Result<AppendResult> prefix =
      this->store_->Append("s", ExpectedVersion::Any(), {Event("evt-1")});
  ASSERT_TRUE(prefix);
  EXPECT_TRUE(prefix->replayed);
  EXPECT_EQ(prefix->version, StreamVersion(1));
  EXPECT_EQ(ReadEverything(*this->store_).size(), size);
}

TYPED_TEST(EventStoreTest, MixingStoredAndNewIdsConflicts) {
  this->MustAppend("s", {Event("a")});
  this->MustAppend("s", {Event("b")});
  auto code_of = [&](std::string_view stream, std::vector<NewEvent> events) {
    const Result<AppendResult> result =
        this->store_->Append(stream, ExpectedVersion::Any(), std::move(events));
    return result ? std::optional<ErrorCode>() : std::optional(result.error().code);
  };
  EXPECT_EQ(code_of("s", {Event("a"), Event("new")}), ErrorCode::kStreamVersionConflict);
  EXPECT_EQ(code_of("s", {Event("new"), Event("a")}), ErrorCode::kStreamVersionConflict);
  // Adjacent positions, but two different appends.
  EXPECT_EQ(code_of("s", {Event("a"), Event("b")}), ErrorCode::kStreamVersionConflict);
  EXPECT_EQ(code_of("s", {Event("b"), Event("a")}), ErrorCode::kStreamVersionConflict);
  // The same id on another stream is not a retry.
  EXPECT_EQ(code_of("other", {Event("a")}), ErrorCode::kStreamVersionConflict);
  EXPECT_EQ(this->store_->Size(), 2u);
  const Result<AppendResult> retry =
      this->store_->Append("s", ExpectedVersion::Any(), {Event("b")});
  ASSERT_TRUE(retry);
  EXPECT_TRUE(retry->replayed);
  EXPECT_EQ(retry->first_position, GlobalPosition(1));
}

TYPED_TEST(EventStoreTest, ConcurrentAppendsAreAllStoredWithoutGaps) {
  constexpr int kOwnStreamThreads = 12;
  constexpr int kSharedThreads = 4;
  constexpr int kAppends = 40;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kOwnStreamThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAppends; ++i) {
        const std::string id = "own-" + std::to_string(t) + "-" + std::to_string(i);
        const Result<AppendResult> r = this->store_->Append(
            "own-" + std::to_string(t), ExpectedVersion::Exactly(StreamVersion(i)), {Event(id)});
        if (!r || r->version != StreamVersion(i + 1)) ++failures;
      }
    });
  }
  for (int t = 0; t < kSharedThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAppends; ++i) {
        const std::string id = "shared-" + std::to_string(t) + "-" + std::to_string(i);
        if (!this->store_->Append("shared", ExpectedVersion::Any(),
                                  {Event(id + "a"), Event(id + "b")}))
          ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);

  const uint64_t total = (kOwnStreamThreads + 2 * kSharedThreads) * kAppends;
  EXPECT_EQ(this->store_->Size(), total);
  const std::vector<EventRecord> records = ReadEverything(*this->store_);
  ASSERT_EQ(records.size(), total);
  std::map<std::string, uint64_t> versions;
  std::set<std::string> ids;
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].position, GlobalPosition(i));
    EXPECT_EQ(records[i].version.value(), ++versions[records[i].stream_id]) << i;
    EXPECT_TRUE(ids.insert(records[i].event_id).second);
    // Both events of a shared append are adjacent.
    if (records[i].event_id.ends_with("a")) {
      ASSERT_LT(i + 1, records.size());
      EXPECT_EQ(records[i + 1].event_id.back(), 'b');
    }
  }
  EXPECT_EQ(versions["shared"], 2u * kSharedThreads * kAppends);
  EXPECT_EQ(this->store_->CurrentVersion("shared").value(),
            StreamVersion(2 * kSharedThreads * kAppends));
  EXPECT_EQ(this->store_->ledger().Root(total).value(), RecomputedRoot(*this->store_));
}

TYPED_TEST(EventStoreTest, ContendedExactAppendsNeverLoseAnUpdate) {
  constexpr int kThreads = 8;
  constexpr int kAttempts = 30;
  std::atomic<int> successes{0};
  std::atomic<int> conflicts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kAttempts; ++i) {
        const StreamVersion seen = this->store_->CurrentVersion("hot").value();
        const Result<AppendResult> r =
            this->store_->Append("hot", ExpectedVersion::Exactly(seen),
                                 {Event("hot-" + std::to_string(t) + "-" + std::to_string(i))});
        if (r) {
          ++successes;
        } else if (r.error().code == ErrorCode::kStreamVersionConflict) {
          ++conflicts;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(successes + conflicts, kThreads * kAttempts);
  EXPECT_EQ(this->store_->CurrentVersion("hot").value(), StreamVersion(successes.load()));
  EXPECT_EQ(this->store_->Size(), static_cast<uint64_t>(successes.load()));
}

TYPED_TEST(EventStoreTest, ReadStreamFromAVersion) {
  this->MustAppend("s", Events("s", 10));
  this->MustAppend("t", Events("t", 3));
  this->MustAppend("s2", Events("s2", 2));
  auto versions = [&](StreamVersion from, size_t max) {
    std::vector<uint64_t> out;
    const std::vector<EventRecord> records = this->store_->ReadStream("s", from, max).value();
    for (const EventRecord& r : records) {
      EXPECT_EQ(r.stream_id, "s");
      out.push_back(r.version.value());
    }
    return out;
  };
  EXPECT_EQ(versions(StreamVersion(4), 3), (std::vector<uint64_t>{4, 5, 6}));
  EXPECT_EQ(versions(StreamVersion(0), 2), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(versions(StreamVersion(9), 100), (std::vector<uint64_t>{9, 10}));
  EXPECT_TRUE(versions(StreamVersion(11), 100).empty());
  EXPECT_TRUE(versions(StreamVersion(1), 0).empty());
  EXPECT_EQ(this->store_->ReadStream("s", StreamVersion(1), 100).value().size(), 10u);
  EXPECT_TRUE(this->store_->ReadStream("unknown", StreamVersion(1), 100).value().empty());
  const std::vector<EventRecord> t = this->store_->ReadStream("t", StreamVersion(1), 100).value();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].position, GlobalPosition(10));
  EXPECT_EQ(t[2].event_id, "t-2");
}

TYPED_TEST(EventStoreTest, ReadAllFromAPosition) {
  for (int i = 0; i < 5; ++i)
    this->MustAppend("s" + std::to_string(i), Events("e" + std::to_string(i), 2));
  const std::vector<EventRecord> middle = this->store_->ReadAll(GlobalPosition(3), 4).value();
  ASSERT_EQ(middle.size(), 4u);
  for (size_t i = 0; i < middle.size(); ++i) EXPECT_EQ(middle[i].position, GlobalPosition(3 + i));
  EXPECT_EQ(this->store_->ReadAll(GlobalPosition(8), 100).value().size(), 2u);
  EXPECT_TRUE(this->store_->ReadAll(GlobalPosition(10), 100).value().empty());
  EXPECT_TRUE(this->store_->ReadAll(GlobalPosition(1000), 100).value().empty());
}

TYPED_TEST(EventStoreTest, ReadRawReturnsTheCanonicalBytes) {
  this->MustAppend("s", Events("e", 3));
  for (const EventRecord& record : ReadEverything(*this->store_)) {
    EXPECT_EQ(this->store_->ReadRaw(record.position).value(), CanonicalBytes(record));
  }
  EXPECT_EQ(this->store_->ReadRaw(GlobalPosition(3)).error().code, ErrorCode::kNotFound);
}

TYPED_TEST(EventStoreTest, WaitForSizeAboveWakesOnAppend) {
  EXPECT_EQ(this->store_->WaitForSizeAbove(0, 20ms), 0u);  // times out
  const auto start = std::chrono::steady_clock::now();
  std::atomic<uint64_t> seen{0};
  std::thread waiter([&] { seen = this->store_->WaitForSizeAbove(0, 30s); });
  std::this_thread::sleep_for(30ms);
  this->MustAppend("s", Events("e", 2));
  waiter.join();
  EXPECT_EQ(seen.load(), 2u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(this->store_->WaitForSizeAbove(1, 30s), 2u);  // already above: no wait
}

TYPED_TEST(EventStoreTest, CloseWakesWaitersAndRefusesAppends) {
  const auto start = std::chrono::steady_clock::now();
  std::thread waiter([&] { this->store_->WaitForSizeAbove(0, 30s); });
  std::this_thread::sleep_for(20ms);
  this->store_->Close();
  waiter.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  const Result<AppendResult> late =
      this->store_->Append("s", ExpectedVersion::Any(), Events("e", 1));
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, ErrorCode::kStorage);
  this->store_->Close();  // idempotent
}

TYPED_TEST(EventStoreTest, BlobsAreContentAddressed) {
  BlobStore& blobs = this->store_->blobs();
  const std::string key = blobs.Put("abc").value();
  EXPECT_EQ(key, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(blobs.Put("abc").value(), key);
  EXPECT_EQ(blobs.Get(key).value(), "abc");
  EXPECT_TRUE(blobs.Contains(key).value());
  const std::string binary("\0\x01\xff pdf", 7);
  EXPECT_EQ(blobs.Get(blobs.Put(binary).value()).value(), binary);
  // One that the next append names is stored alike.
  EXPECT_EQ(blobs.PutBeforeAppend("abc").value(), key);
  const std::string frozen = blobs.PutBeforeAppend("%PDF frozen").value();
  EXPECT_EQ(frozen, Sha256Hex("%PDF frozen"));
  EXPECT_EQ(blobs.Get(frozen).value(), "%PDF frozen");
  const std::string absent = Sha256Hex("absent");
  EXPECT_FALSE(blobs.Contains(absent).value());
  EXPECT_EQ(blobs.Get(absent).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(this->store_->Size(), 0u);  // blobs are not events
}

TYPED_TEST(EventStoreTest, LedgerMatchesTheRecordsAndItsProofsVerify) {
  for (int i = 0; i < 9; ++i)
    this->MustAppend("s" + std::to_string(i % 3), Events("e" + std::to_string(i), 1 + i % 4));
  const uint64_t size = this->store_->Size();
  ASSERT_EQ(size, 9u + 0 + 1 + 2 + 3 + 0 + 1 + 2 + 3 + 0);
  const Ledger& ledger = this->store_->ledger();
  EXPECT_EQ(ledger.Size(), size);

  std::vector<Hash> leaves;
  for (const EventRecord& record : ReadEverything(*this->store_)) {
    leaves.push_back(LeafHash(CanonicalBytes(record)));
    EXPECT_EQ(ledger.LeafHashAt(record.position.value()).value(), leaves.back());
  }
  for (uint64_t n = 0; n <= size; ++n) {
    const std::vector<Hash> prefix(leaves.begin(), leaves.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_EQ(ledger.Root(n).value(), RootFromLeafHashes(prefix)) << n;
  }
  const Hash root = ledger.Root(size).value();
  for (uint64_t i = 0; i < size; ++i) {
    const std::vector<Hash> proof = ledger.InclusionProof(i, size).value();
    EXPECT_TRUE(VerifyInclusion(leaves[i], i, size, proof, root)) << i;
  }
  for (uint64_t old_size : {uint64_t{0}, uint64_t{1}, uint64_t{7}, size - 1, size}) {
    const std::vector<Hash> proof = ledger.ConsistencyProof(old_size, size).value();
    EXPECT_TRUE(VerifyConsistency(old_size, size, ledger.Root(old_size).value(), root, proof));
  }
  EXPECT_EQ(ledger.Root(size + 1).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ledger.LeafHashAt(size).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ledger.InclusionProof(size, size).error().code, ErrorCode::kValidationFailed);
  EXPECT_EQ(ledger.InclusionProof(0, size + 1).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ledger.ConsistencyProof(3, 2).error().code, ErrorCode::kValidationFailed);
}

TYPED_TEST(EventStoreTest, SignedTreeHeadsCoverTheLogAndVerify) {
  Ledger& ledger = this->store_->ledger();
  const SignedTreeHead empty = ledger.SignTreeHead().value();
  EXPECT_EQ(empty.size, 0u);
  EXPECT_EQ(empty.root, EmptyRoot());

  this->MustAppend("s", Events("e", 5));
  const SignedTreeHead first = ledger.SignTreeHead().value();
  EXPECT_EQ(first.size, 5u);
  EXPECT_EQ(first.root, ledger.Root(5).value());
  EXPECT_TRUE(VerifyTreeHead(first, ledger.PublicKeyPem()));
  EXPECT_EQ(ledger.SignTreeHead().value(), first);  // nothing new: the same head

  this->MustAppend("t", Events("f", 3));
  const SignedTreeHead second = ledger.SignTreeHead().value();
  EXPECT_EQ(second.size, 8u);
  EXPECT_GE(second.timestamp_ms, first.timestamp_ms);
  EXPECT_EQ(ledger.TreeHeads().value(), (std::vector<SignedTreeHead>{empty, first, second}));

  const Result<LogVerification> verified = VerifyLog(*this->store_);
  ASSERT_TRUE(verified) << verified.error().message;
  EXPECT_TRUE(verified->ok) << (verified->problems.empty() ? "" : verified->problems[0]);
  EXPECT_EQ(verified->heads_checked, 3u);
  EXPECT_EQ(verified->size, 8u);
  EXPECT_EQ(verified->root, second.root);
}

TYPED_TEST(EventStoreTest, VerifyLogRejectsAForeignKeyAndAForgedHead) {
  this->MustAppend("s", Events("e", 4));
  Ledger& ledger = this->store_->ledger();
  SignedTreeHead head = ledger.SignTreeHead().value();
  VerifyOptions options;
  options.public_key_pem = ledger.PublicKeyPem();
  options.heads = {head};
  options.ledger = &ledger;
  EXPECT_TRUE(VerifyLog(*this->store_, options).value().ok);

  options.public_key_pem = TreeHeadSigner::CreateEphemeral().value()->PublicKeyPem();
  EXPECT_FALSE(VerifyLog(*this->store_, options).value().ok);

  options.public_key_pem = ledger.PublicKeyPem();
  head.root[0] ^= 1;
  options.heads = {head};
  const LogVerification forged = VerifyLog(*this->store_, options).value();
  EXPECT_FALSE(forged.ok);
  EXPECT_EQ(forged.problems.size(), 2u);  // bad signature, and a root the events do not give
  EXPECT_FALSE(forged.first_bad_position);
}

}  // namespace
}  // namespace esign::eventstore
