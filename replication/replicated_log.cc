#include "replication/replicated_log.h"

#include <utility>

#include "base/hex.h"
#include "base/thread_name.h"
#include "domain/id_generator.h"

namespace esign::replication {

using eventstore::LogEntry;
using eventstore::LogEntryKind;
using eventstore::LogMark;

std::string LogTopicOf(const std::string& shard) { return "contract-log." + shard; }

std::string_view ToString(LogRole role) {
  switch (role) {
    case LogRole::kStandby:
      return "standby";
    case LogRole::kWriter:
      return "writer";
    case LogRole::kFenced:
      return "fenced";
    case LogRole::kStopped:
      return "stopped";
  }
  return "unknown";
}

Result<std::unique_ptr<ReplicatedLog>> ReplicatedLog::Open(ReplicatedLogOptions options) {
  if (options.key.size() < 32) {
    return Fail(ErrorCode::kValidationFailed, "the replication key must have 32 bytes");
  }
  std::unique_ptr<ReplicatedLog> log(new ReplicatedLog(std::move(options)));
  auto topic = KafkaLogTopic::Open(KafkaLogTopicOptions{.brokers = log->options_.brokers,
                                                        .topic = LogTopicOf(log->options_.shard),
                                                        .timeout = log->options_.timeout,
                                                        .settings = log->options_.settings});
  if (!topic) return Fail(topic.error());
  log->topic_ = std::move(*topic);
  return log;
}

ReplicatedLog::~ReplicatedLog() { Stop(); }

void ReplicatedLog::Log(const std::string& line) const {
  if (options_.log) options_.log("replicated log: " + line);
}

void ReplicatedLog::SetRole(LogRole role) {
  role_.store(role, std::memory_order_release);
  std::lock_guard lock(status_mutex_);
  status_.role = role;
}

LogStatus ReplicatedLog::status() const {
  std::lock_guard lock(status_mutex_);
  return status_;
}

Status ReplicatedLog::Attach(eventstore::RocksEventStore& store) {
  store_ = &store;
  return store.RunOnAppender([this]() -> Status {
    Result<LogMark> mark = store_->ReadLogMark();
    if (!mark) return Fail(mark.error());
    Result<std::string> claim = store_->ReadLogClaim();
    if (!claim) return Fail(claim.error());
    const auto [size, root] = store_->WrittenHead();
    fence_ = eventstore::LogFence{.epoch = mark->epoch, .size = size, .root = root};
    next_offset_ = static_cast<int64_t>(mark->next_offset);
    std::lock_guard lock(status_mutex_);
    status_.epoch = fence_.epoch;
    status_.writer = claim->substr(0, claim->find('\n'));
    status_.next_offset = mark->next_offset;
    status_.size = size;
    return {};
  });
}

Status ReplicatedLog::ApplyMessage(int64_t offset, std::string_view bytes) {
  const LogMark mark{.next_offset = static_cast<uint64_t>(offset) + 1, .epoch = fence_.epoch};
  Result<LogEntry> entry = eventstore::DecodeLogEntry(bytes, options_.key);
  if (!entry) {
    Log("skipped the message at offset " + std::to_string(offset) + ": " + entry.error().message);
  } else if (fence_.Admits(*entry)) {
    const LogEntryKind kind = entry->kind;
    Status applied;
    if (kind == LogEntryKind::kClaim) {
      applied = store_->ApplyLogEntry(*entry, LogMark{mark.next_offset, entry->epoch});
    } else if (kind != LogEntryKind::kBlob || entry->chunks == 0) {
      applied = store_->ApplyLogEntry(*entry, mark);
    } else {
      // A blob arrives in consecutive chunks and is applied once whole; a stray chunk is dropped.
      if (entry->chunk == 0) {
        blob_ = std::move(*entry);
        blob_next_chunk_ = 1;
      } else if (entry->sha256 == blob_.sha256 && entry->chunk == blob_next_chunk_) {
        blob_.bytes.append(entry->bytes);
        ++blob_next_chunk_;
      } else {
        blob_ = LogEntry{};
        blob_next_chunk_ = 0;
      }
      if (blob_next_chunk_ != 0 && blob_next_chunk_ == blob_.chunks) {
        blob_.chunk = 0;
        blob_.chunks = 1;
        applied = store_->ApplyLogEntry(blob_, mark);
        blob_ = LogEntry{};
        blob_next_chunk_ = 0;
      }
    }
    if (!applied) return applied;
    if (kind == LogEntryKind::kBatch || kind == LogEntryKind::kClaim) fence_.Apply(*entry);
    if (kind == LogEntryKind::kClaim) {
      if (entry->bytes == claimed_) my_epoch_ = entry->epoch;
      std::lock_guard lock(status_mutex_);
      status_.writer = entry->bytes.substr(0, entry->bytes.find('\n'));
    }
  }
  next_offset_ = offset + 1;
  std::lock_guard lock(status_mutex_);
  status_.epoch = fence_.epoch;
  status_.next_offset = static_cast<uint64_t>(next_offset_);
  status_.size = fence_.size;
  return {};
}

Status ReplicatedLog::ReadToEnd(bool on_appender) {
  const int64_t from = on_appender ? next_offset_ : static_cast<int64_t>(status().next_offset);
  return topic_->Read(from, KafkaLogTopic::kToEnd,
                      [&](int64_t offset, std::string_view bytes) -> Status {
                        if (on_appender) return ApplyMessage(offset, bytes);
                        return store_->RunOnAppender([&] { return ApplyMessage(offset, bytes); });
                      });
}

Status ReplicatedLog::Follow() {
  if (Status caught_up = ReadToEnd(false); !caught_up) return caught_up;
  follower_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-logfollow");
    const Status followed = topic_->Read(
        static_cast<int64_t>(status().next_offset), KafkaLogTopic::kFollow,
        [&](int64_t offset, std::string_view bytes) {
          return store_->RunOnAppender([&] { return ApplyMessage(offset, bytes); });
        },
        stop);
    if (!followed && !stop.stop_requested()) {
      Log("the standby stopped following at offset " + std::to_string(status().next_offset) + ": " +
          followed.error().message);
      SetRole(LogRole::kStopped);
    }
  });
  return {};
}

Status ReplicatedLog::Claim(std::optional<uint64_t> only_after) {
  if (Status caught_up = ReadToEnd(false); !caught_up) return caught_up;
  return store_->RunOnAppender([this, only_after]() -> Status {
    // Again on the appender, so that nothing is published between this read and the claim.
    if (Status caught_up = ReadToEnd(true); !caught_up) return caught_up;
    if (only_after && fence_.epoch != *only_after) {
      return Fail(ErrorCode::kContractStateConflict,
                  "another node took the log over meanwhile: epoch " +
                      std::to_string(fence_.epoch) + " belongs to " + status().writer);
    }
    claimed_ = options_.node_name + "\n" + ToHex(RandomBytes(16));
    const LogEntry claim{.kind = LogEntryKind::kClaim,
                         .epoch = fence_.epoch + 1,
                         .size = fence_.size,
                         .root = fence_.root,
                         .bytes = claimed_};
    const Result<int64_t> offset = topic_->Produce(eventstore::EncodeLogEntry(claim, options_.key));
    // Acknowledged or not, the topic now says who won: read it.
    if (Status read = ReadToEnd(true); !read) return read;
    if (my_epoch_ != 0 && fence_.epoch == my_epoch_) {
      resync_ = false;
      SetRole(LogRole::kWriter);
      Log("this node is the writer of epoch " + std::to_string(my_epoch_) + " at " +
          std::to_string(fence_.size) + " events (offset " + std::to_string(next_offset_) + ")");
      return {};
    }
    if (!offset) return Fail(offset.error());
    return Fail(ErrorCode::kContractStateConflict, "another node claimed the log first: epoch " +
                                                       std::to_string(fence_.epoch) +
                                                       " belongs to " + status().writer);
  });
}

void ReplicatedLog::Stop() {
  if (follower_.joinable()) {
    follower_.request_stop();
    follower_.join();
  }
}

Status ReplicatedLog::Resync() {
  if (Status read = ReadToEnd(true); !read) return read;
  if (fence_.epoch != my_epoch_) {
    SetRole(LogRole::kFenced);
    Log("epoch " + std::to_string(my_epoch_) + " was claimed by " + status().writer + " (epoch " +
        std::to_string(fence_.epoch) + "): this node writes nothing more");
    if (options_.on_fenced) options_.on_fenced();
    return Fail(Writable().error());
  }
  resync_ = false;
  return {};
}

Status ReplicatedLog::Writable() const {
  const LogRole role = role_.load(std::memory_order_acquire);
  if (role == LogRole::kWriter) return {};
  const std::string writer = status().writer;
  return Fail(
      ErrorCode::kUnavailable,
      std::string(role == LogRole::kFenced ? "this node was the writer until another "
                                             "claimed the replicated log"
                                           : "this node is a standby of the replicated log") +
          " and takes no writes" + (writer.empty() ? "" : "; the writer is " + writer));
}

Result<LogMark> ReplicatedLog::Publish(LogEntry& entry) {
  if (role_.load(std::memory_order_acquire) != LogRole::kWriter) return Fail(Writable().error());
  if (resync_) {
    if (Status resynced = Resync(); !resynced) return Fail(resynced.error());
  }
  entry.epoch = my_epoch_;
  if (entry.kind != LogEntryKind::kBatch) {
    entry.size = fence_.size;
  } else if (entry.size != fence_.size) {
    return Fail(ErrorCode::kUnavailable, "the replicated log moved on; retry");
  }
  const std::string bytes = eventstore::EncodeLogEntry(entry, options_.key);
  if (bytes.size() > eventstore::kMaxLogEntryBytes) {
    return Fail(ErrorCode::kPayloadTooLarge, "an entry of the replicated log is at most 8 MiB");
  }
  const Result<int64_t> offset = topic_->Produce(bytes);
  // Acknowledged as the entry that counts: at the offset right after this writer's previous one,
  // or after entries none of which counted (an old writer's, still in flight when it was fenced).
  bool counts = offset && *offset == next_offset_;
  if (offset && *offset > next_offset_) {
    const uint64_t epoch = fence_.epoch;
    const uint64_t size = fence_.size;
    const int64_t between = *offset - next_offset_;
    const Status read = topic_->Read(next_offset_, *offset, [this](int64_t at, std::string_view b) {
      return ApplyMessage(at, b);
    });
    counts = read && fence_.epoch == epoch && fence_.size == size && next_offset_ == *offset;
    if (counts) {
      Log("skipped " + std::to_string(between) + " entries that did not count before offset " +
          std::to_string(*offset));
    }
  }
  if (!counts) {
    // Nothing more is acknowledged until the topic is read again. When the cluster answered,
    // that is done at once (a writer that was fenced learns it now, not at its next write);
    // when it did not, at the next publish.
    resync_ = true;
    if (!offset) return Fail(offset.error());
    Log("an entry came before this writer's at offset " + std::to_string(*offset) +
        "; reading the topic again");
    static_cast<void>(Resync());
    return Fail(ErrorCode::kUnavailable,
                "another entry came first in the replicated log; nothing was stored; retry");
  }
  next_offset_ = *offset + 1;
  fence_.Apply(entry);
  std::lock_guard lock(status_mutex_);
  status_.next_offset = static_cast<uint64_t>(next_offset_);
  status_.size = fence_.size;
  return LogMark{.next_offset = static_cast<uint64_t>(next_offset_), .epoch = fence_.epoch};
}

}  // namespace esign::replication
