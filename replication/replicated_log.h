// The replicated log of one shard (DESIGN 22): the store's LogReplication on the log topic, and
// the roles of a node.
//   standby  follows the topic on a thread of its own and applies, through the store's one apply
//            path (RocksEventStore::ApplyLogEntry), every entry that counts (log_fence.h); it
//            writes nothing of its own.
//   writer   has claimed the current epoch; publishes every append batch, blob and head, and lets
//            the store write one only once the cluster acknowledged it at the offset right after
//            this writer's previous entry. Anything else (an error, a foreign entry between)
//            stops it acknowledging until it has read the topic again: it resumes when its epoch
//            is still the current one, and is fenced (on_fenced, once) when a claim came between.
//   fenced   a writer that lost its epoch: writes nothing more.
// A node starts as a standby (Follow) or claims the next epoch (Claim) after applying everything
// up to the end of the topic; of two claims on the same base, the first in the topic wins.
//
// Thread safety: Writable and status from any thread; the rest from one controlling thread.
// Entries are applied and published on the store's appender thread only.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "eventstore/log_fence.h"
#include "eventstore/log_replication.h"
#include "eventstore/rocksdb_event_store.h"
#include "replication/kafka_log_topic.h"

namespace esign::replication {

struct ReplicatedLogOptions {
  std::string brokers;  // required
  std::string shard = "main";
  std::string key;        // the replication key: every node of the shard holds the same
  std::string node_name;  // written in this node's claims: where clients reach it
  std::chrono::milliseconds timeout{5000};  // a message's wait for the cluster
  // One line for the operator's log.
  std::function<void(const std::string&)> log;
  // Called once, on the appender thread, when this writer learns it lost its epoch.
  std::function<void()> on_fenced;
  webhooks::KafkaSettings settings;  // more client settings (tests)
};

// The topic of a shard: contract-log.<shard>.
std::string LogTopicOf(const std::string& shard);

enum class LogRole { kStandby, kWriter, kFenced, kStopped };
std::string_view ToString(LogRole role);

struct LogStatus {
  LogRole role = LogRole::kStandby;
  uint64_t epoch = 0;        // the current epoch as applied here
  std::string writer;        // the node that claimed it
  uint64_t next_offset = 0;  // where this node reads on
  uint64_t size = 0;         // events applied
};

class ReplicatedLog final : public eventstore::LogReplication {
 public:
  static Result<std::unique_ptr<ReplicatedLog>> Open(ReplicatedLogOptions options);
  ~ReplicatedLog() override;
  ReplicatedLog(const ReplicatedLog&) = delete;
  ReplicatedLog& operator=(const ReplicatedLog&) = delete;

  // The store opened with this as its replication; reads where it stands (its mark, size, root).
  Status Attach(eventstore::RocksEventStore& store);
  // Standby: applies everything up to the end of the topic, then follows it on a thread until
  // Stop. An entry the store refuses (log_entry.h's checks) stops following, with one log line.
  Status Follow();
  // Applies everything up to the end of the topic, publishes a claim of the next epoch on the
  // log as it then stands, and reads the topic again: the writer when that claim counted,
  // kContractStateConflict (naming the winner) when another came first. With `only_after`, a
  // promotion: claims only if the epoch is still that one once everything is applied, so that
  // of two standbys promoted at once the second does not take over from the first.
  Status Claim(std::optional<uint64_t> only_after = std::nullopt);
  // Stops following. Idempotent.
  void Stop();

  LogStatus status() const;

  // LogReplication.
  Status Writable() const override;
  Result<eventstore::LogMark> Publish(eventstore::LogEntry& entry) override;

 private:
  explicit ReplicatedLog(ReplicatedLogOptions options) : options_(std::move(options)) {}
  // On the appender thread: decodes, fences and applies one message.
  Status ApplyMessage(int64_t offset, std::string_view bytes);
  // Reads up to the end of the topic and applies what counts; `on_appender`: already on the
  // appender thread (from Publish), else each message goes through RunOnAppender.
  Status ReadToEnd(bool on_appender);
  // On the appender thread, after a publish that was not acknowledged as the entry that counts:
  // reads the topic to its end and resumes, or is fenced when a claim came between. Until it
  // succeeds, every publish tries it first.
  Status Resync();
  void Log(const std::string& line) const;
  void SetRole(LogRole role);

  const ReplicatedLogOptions options_;
  std::unique_ptr<KafkaLogTopic> topic_;
  eventstore::RocksEventStore* store_ = nullptr;
  std::atomic<LogRole> role_{LogRole::kStandby};

  // On the appender thread.
  eventstore::LogFence fence_;
  int64_t next_offset_ = 0;
  bool resync_ = false;  // a publish went wrong: read the topic before the next one
  std::string claimed_;  // this node's claim (name and nonce), once made
  uint64_t my_epoch_ = 0;
  // A blob being put together from its chunks.
  eventstore::LogEntry blob_;
  uint32_t blob_next_chunk_ = 0;

  mutable std::mutex status_mutex_;
  LogStatus status_;  // guarded by status_mutex_; a copy of the above for other threads

  std::jthread follower_;
};

}  // namespace esign::replication
