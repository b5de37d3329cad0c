// The event store: an append-only global log of event records, grouped into streams, with a
// verifiable Merkle ledger over every record and a content-addressed blob store beside it.
//
// Two implementations share this interface: the RocksDB store (rocksdb_event_store.h), durable,
// and the in-memory twin (memory_event_store.h) for tests of other layers.
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"
#include "domain/strong_types.h"
#include "eventstore/event_record.h"
#include "eventstore/merkle.h"
#include "eventstore/tree_head.h"

namespace esign::eventstore {

// Optimistic concurrency for Append.
class ExpectedVersion {
 public:
  static ExpectedVersion Any() { return ExpectedVersion(Kind::kAny, StreamVersion()); }
  static ExpectedVersion NoStream() { return ExpectedVersion(Kind::kNoStream, StreamVersion()); }
  static ExpectedVersion Exactly(StreamVersion v) { return ExpectedVersion(Kind::kExact, v); }

  // True when a stream at `current` satisfies this expectation.
  bool Admits(StreamVersion current) const {
    switch (kind_) {
      case Kind::kAny:
        return true;
      case Kind::kNoStream:
        return current.value() == 0;
      case Kind::kExact:
        return current == version_;
    }
    return false;
  }

 private:
  enum class Kind { kAny, kNoStream, kExact };
  ExpectedVersion(Kind kind, StreamVersion version) : kind_(kind), version_(version) {}
  Kind kind_;
  StreamVersion version_;
};

struct AppendResult {
  GlobalPosition first_position;  // of the first event of this append
  StreamVersion version;          // of the stream after the append's last event
  size_t count = 0;
  bool replayed = false;  // every event id was already stored: nothing was written
};

// Told the outcome of an AppendAsync.
using AppendCallback = std::function<void(Result<AppendResult>)>;

class Ledger {
 public:
  virtual ~Ledger() = default;
  virtual uint64_t Size() const = 0;  // leaves = events in the log
  virtual Result<Hash> LeafHashAt(uint64_t index) const = 0;
  virtual Result<Hash> Root(uint64_t size) const = 0;
  virtual Result<std::vector<Hash>> InclusionProof(uint64_t index, uint64_t size) const = 0;
  virtual Result<std::vector<Hash>> ConsistencyProof(uint64_t old_size,
                                                     uint64_t new_size) const = 0;
  // Signs the current size and root, stores the head and returns it. When the newest stored head
  // already covers the current size, returns that one instead of signing again.
  virtual Result<SignedTreeHead> SignTreeHead() = 0;
  // Every stored head, by increasing size.
  virtual Result<std::vector<SignedTreeHead>> TreeHeads() const = 0;
  // The newest signed head (with its timestamp token once it has one); nothing before the first.
  virtual std::optional<SignedTreeHead> NewestTreeHead() const = 0;
  virtual std::string PublicKeyPem() const = 0;
  // Heads signed from now on are timestamped by `timestamper`. A head is stored and becomes the
  // newest as soon as it is signed; the SignTreeHead call that signed it then asks `timestamper`
  // without holding the ledger's lock, and stores the head again with the token it gets, so
  // other callers never wait for the authority. A head it gives no token keeps none.
  virtual void SetTimestamper(TreeHeadTimestamper timestamper) = 0;
};

class BlobStore {
 public:
  virtual ~BlobStore() = default;
  // Stores bytes under their SHA-256 (lower-case hex), durably; storing twice is harmless.
  virtual Result<std::string> Put(std::string_view bytes) = 0;
  // Stores bytes that an event appended next names: durable once that append is. The RocksDB
  // store writes them to the write-ahead log the append then syncs, which saves a sync of their
  // own; should the process die before the append, the blob may be lost with it, and no event
  // names it. Default: Put.
  virtual Result<std::string> PutBeforeAppend(std::string_view bytes) { return Put(bytes); }
  // kNotFound when absent.
  virtual Result<std::string> Get(std::string_view sha256_hex) const = 0;
  virtual Result<bool> Contains(std::string_view sha256_hex) const = 0;
  // Removes a blob that nothing refers to any more (an expired upload's); absent is success. The
  // caller proves that no event names it: blobs are shared by content.
  virtual Status Delete(std::string_view sha256_hex) = 0;
};

class EventStore {
 public:
  virtual ~EventStore() = default;

  // Appends `events` to the end of `stream_id` atomically, durably (WAL synced before it returns).
  // kStreamVersionConflict when `expected` does not admit the stream's version. When the first
  // event's id is already stored and every event id of the call belongs to the same earlier append,
  // nothing is written and the original positions come back with replayed = true; a mix of stored
  // and new ids is kStreamVersionConflict.
  virtual Result<AppendResult> Append(std::string_view stream_id, ExpectedVersion expected,
                                      std::vector<NewEvent> events) = 0;

  // Append without waiting for it: `done` is called exactly once with what Append would have
  // returned, once the append is durable or refused. It may run on a thread of the store (the
  // RocksDB store: its syncer, after the WAL sync), so it must be short and must neither block nor
  // append. Default: Append, then `done` on the caller's thread.
  virtual void AppendAsync(std::string_view stream_id, ExpectedVersion expected,
                           std::vector<NewEvent> events, AppendCallback done) {
    const AppendCallback answer = std::move(done);
    answer(Append(stream_id, expected, std::move(events)));
  }

  // Events of a stream with version >= from (versions start at 1), at most max_count.
  virtual Result<std::vector<EventRecord>> ReadStream(std::string_view stream_id,
                                                      StreamVersion from,
                                                      size_t max_count) const = 0;
  virtual Result<StreamVersion> CurrentVersion(std::string_view stream_id) const = 0;
  // Events of the global log with position >= from, at most max_count, in order.
  virtual Result<std::vector<EventRecord>> ReadAll(GlobalPosition from, size_t max_count) const = 0;
  // The canonical bytes stored at a position, exactly as stored.
  virtual Result<std::string> ReadRaw(GlobalPosition position) const = 0;

  // Events in the log (the next position to be assigned).
  virtual uint64_t Size() const = 0;
  // Blocks until Size() > `size`, the timeout passes, `stop` is requested, or the store closes;
  // returns Size(). Woken by appends and by the stop request: no polling.
  virtual uint64_t WaitForSizeAbove(uint64_t size, std::chrono::milliseconds timeout,
                                    std::stop_token stop = {}) const = 0;

  virtual Ledger& ledger() = 0;
  virtual BlobStore& blobs() = 0;

  // Called by a writer beside the appender (a projection, an outbox) whose write was refused for
  // a full disk, before it tries again: a store that stopped taking writes may take them again
  // once space has returned (rate-limited there). Default: nothing to do.
  virtual void RecoverStorage() const {}

  // Wakes every waiter and refuses further appends. Called before destruction.
  virtual void Close() = 0;
};

}  // namespace esign::eventstore
