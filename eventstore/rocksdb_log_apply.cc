// The RocksDB store's side of the replicated log (log_replication.h, DESIGN 22): what the writer
// publishes before it writes, and the one path by which an entry published by any writer (another
// node, or this one before a failure) is checked and applied. Both run on the appender thread, so
// the appender's state (planner, written size, frontier) has one owner.
#include <cstring>
#include <string>
#include <utility>

#include "base/sha256.h"
#include "eventstore/rocksdb_blob_store.h"
#include "eventstore/rocksdb_event_store.h"
#include "eventstore/rocksdb_ledger.h"
#include "eventstore/rocksdb_options.h"
#include "eventstore/rocksdb_status.h"
#include "eventstore/store_keys.h"
#include "eventstore/stored_record.h"
#include "eventstore/tree_head.h"

namespace esign::eventstore {
namespace {

// In the checkpoints family: the store's LogMark, next offset and epoch (u64 big-endian each).
constexpr std::string_view kLogMarkKey = "replicated-log";
// In the checkpoints family: the claim that made the current epoch (the claimant's name first).
constexpr std::string_view kLogClaimKey = "replicated-log-claim";

std::unexpected<Error> Refuse(const std::string& why) {
  return Fail(ErrorCode::kCorruption, "a replicated log entry was refused: " + why);
}

}  // namespace

std::pair<uint64_t, Hash> RocksEventStore::WrittenHead() const {
  return {written_size_, work_frontier_.Root()};
}

Result<std::string> RocksEventStore::ReadCheckpoint(std::string_view key) const {
  std::string value;
  const rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), Family(family::kCheckpoints), key, &value);
  if (status.IsNotFound()) return std::string();
  if (!status.ok()) return FailFromRocks(status, "reading " + std::string(key));
  return value;
}

Result<LogMark> RocksEventStore::ReadLogMark() const {
  Result<std::string> value = ReadCheckpoint(kLogMarkKey);
  if (!value) return Fail(value.error());
  if (value->empty()) return LogMark{};
  const std::string_view bytes = *value;
  const auto offset = DecodeU64(bytes.substr(0, 8));
  const auto epoch = bytes.size() == 16 ? DecodeU64(bytes.substr(8)) : std::nullopt;
  if (!offset || !epoch) return Fail(ErrorCode::kCorruption, "malformed replicated log mark");
  return LogMark{.next_offset = *offset, .epoch = *epoch};
}

Result<std::string> RocksEventStore::ReadLogClaim() const { return ReadCheckpoint(kLogClaimKey); }

Status RocksEventStore::WriteAcknowledged(rocksdb::WriteBatch& batch, bool sync,
                                          const std::string& what) {
  rocksdb::WriteOptions write;
  write.sync = sync;
  const rocksdb::Status status = db_->Write(write, &batch);
  if (status.ok()) return {};
  failed_.store(true, std::memory_order_release);
  return FailFromRocks(status, what);
}

void RocksEventStore::PutMark(rocksdb::WriteBatch& batch, const LogMark& mark) {
  const U64Key offset = EncodeU64(mark.next_offset);
  const U64Key epoch = EncodeU64(mark.epoch);
  std::string value(offset.data(), offset.size());
  value.append(epoch.data(), epoch.size());
  batch.Put(Family(family::kCheckpoints), kLogMarkKey, value).PermitUncheckedError();
}

Status RocksEventStore::PublishBatch(const Hash& root) {
  LogEntry entry{.kind = LogEntryKind::kBatch, .size = written_size_, .root = root};
  entry.records.swap(raws_);
  for (const PlannedAppend& append : plan_.appends) {
    if (append.record_count > 0)
      entry.append_sizes.push_back(static_cast<uint32_t>(append.record_count));
  }
  Result<LogMark> mark = options_.replication->Publish(entry);
  if (!mark) return Fail(mark.error());
  PutMark(batch_, *mark);
  return {};
}

Status RocksEventStore::WriteBlobReplicated(const std::string& sha256,
                                            std::optional<std::string_view> bytes) {
  return RunOnAppender([&]() -> Status {
    LogEntry entry{.kind = LogEntryKind::kBlob, .sha256 = sha256};
    LogMark mark;
    if (!bytes) {
      Result<LogMark> published = options_.replication->Publish(entry);
      if (!published) return Fail(published.error());
      mark = *published;
    } else {
      const size_t chunks =
          std::max<size_t>(1, (bytes->size() + kLogBlobChunkBytes - 1) / kLogBlobChunkBytes);
      entry.chunks = static_cast<uint32_t>(chunks);
      for (size_t chunk = 0; chunk < chunks; ++chunk) {
        entry.chunk = static_cast<uint32_t>(chunk);
        entry.bytes = std::string(bytes->substr(chunk * kLogBlobChunkBytes, kLogBlobChunkBytes));
        Result<LogMark> published = options_.replication->Publish(entry);
        if (!published) return Fail(published.error());
        mark = *published;
      }
    }
    rocksdb::WriteBatch batch;
    if (bytes) {
      batch.Put(Family(family::kBlobs), sha256, rocksdb::Slice(bytes->data(), bytes->size()))
          .PermitUncheckedError();
    } else {
      batch.Delete(Family(family::kBlobs), sha256).PermitUncheckedError();
    }
    PutMark(batch, mark);
    return WriteAcknowledged(batch, options_.sync, "storing blob " + sha256);
  });
}

Status RocksEventStore::WriteHeadReplicated(const SignedTreeHead& head) {
  return RunOnAppender([&]() -> Status {
    LogEntry entry{.kind = LogEntryKind::kHead, .bytes = SerializeStoredTreeHead(head)};
    Result<LogMark> mark = options_.replication->Publish(entry);
    if (!mark) return Fail(mark.error());
    rocksdb::WriteBatch batch;
    const U64Key key = EncodeU64(head.size);
    batch.Put(Family(family::kTreeHeads), rocksdb::Slice(key.data(), key.size()), entry.bytes)
        .PermitUncheckedError();
    PutMark(batch, *mark);
    return WriteAcknowledged(batch, true, "storing a tree head");
  });
}

Status RocksEventStore::ApplyLogEntry(const LogEntry& entry, const LogMark& mark) {
  rocksdb::WriteBatch batch;
  WrittenBatch out;
  std::vector<EventRecord> records;
  std::optional<SignedTreeHead> head;
  switch (entry.kind) {
    case LogEntryKind::kBatch: {
      if (entry.size != written_size_) {
        return Refuse("a batch at position " + std::to_string(entry.size) + " after a log of " +
                      std::to_string(written_size_) + " events");
      }
      records.reserve(entry.records.size());
      MerkleFrontier frontier = work_frontier_;
      std::vector<NewNode> nodes;
      size_t record = 0;
      for (const uint32_t count : entry.append_sizes) {
        const uint64_t append_first = entry.size + record;
        for (uint32_t k = 0; k < count; ++k, ++record) {
          const std::string& raw = entry.records[record];
          Result<EventRecord> parsed = ParseStoredRecord(raw);
          const uint64_t position = entry.size + record;
          if (!parsed)
            return Refuse("the record at " + std::to_string(position) + ": " +
                          parsed.error().message);
          if (parsed->position.value() != position) {
            return Refuse("the record at " + std::to_string(position) + " names position " +
                          std::to_string(parsed->position.value()));
          }
          frontier.Append(LeafHash(raw), nodes);
          PutRecord(batch, raw, parsed->stream_id, parsed->event_id,
                    {parsed->position, GlobalPosition(append_first), parsed->version});
          records.push_back(std::move(*parsed));
        }
      }
      if (frontier.Root() != entry.root) {
        return Refuse("the batch at position " + std::to_string(entry.size) +
                      " does not give its Merkle root");
      }
      PutNodes(batch, nodes);
      static_cast<void>(node_cache_.Add(nodes));
      out.wrote = true;
      out.size = written_size_ + records.size();
      out.frontier = std::move(frontier);
      break;
    }
    case LogEntryKind::kBlob:
      if (entry.chunks == 0) {
        batch.Delete(Family(family::kBlobs), entry.sha256).PermitUncheckedError();
      } else if (entry.chunks != 1 || Sha256Hex(entry.bytes) != entry.sha256) {
        return Refuse("blob " + entry.sha256 + " does not hash to its name");
      } else {
        batch.Put(Family(family::kBlobs), entry.sha256, entry.bytes).PermitUncheckedError();
      }
      break;
    case LogEntryKind::kHead: {
      Result<SignedTreeHead> parsed = ParseStoredTreeHead(entry.bytes);
      if (!parsed) return Refuse("a tree head: " + parsed.error().message);
      if (parsed->size > written_size_) {
        return Refuse("a tree head of " + std::to_string(parsed->size) + " events after a log of " +
                      std::to_string(written_size_));
      }
      const U64Key key = EncodeU64(parsed->size);
      batch.Put(Family(family::kTreeHeads), rocksdb::Slice(key.data(), key.size()), entry.bytes)
          .PermitUncheckedError();
      head = std::move(*parsed);
      break;
    }
    case LogEntryKind::kClaim:
      batch.Put(Family(family::kCheckpoints), kLogClaimKey, entry.bytes).PermitUncheckedError();
      break;
  }
  PutMark(batch, mark);
  rocksdb::WriteOptions write;
  write.sync = false;  // synced by the syncer, before readers see it
  const rocksdb::Status status = db_->Write(write, &batch);
  if (!status.ok()) return FailFromRocks(status, "applying the replicated log");
  if (out.wrote) {
    planner_->Applied(records);
    written_size_ = out.size;
    work_frontier_ = out.frontier;
  }
  if (head) ledger_->AdoptTreeHead(*head);
  // Through the syncer even without records: the mark is durable only after a sync.
  out.wrote = true;
  out.size = written_size_;
  out.frontier = work_frontier_;
  HandToSyncer(std::move(out));
  return {};
}

}  // namespace esign::eventstore
