// Who tries to take over when the writer is gone (--auto-promote, DESIGN 22): every node of the
// shard is a member of the consumer group contractd-writer-<shard>, subscribed to the log topic,
// whose one partition the group gives to one member. Members are ordered by their client id, the
// writer's sorting first, and the range assignor gives the partition to the first: while the
// writer is a member it holds the partition. A standby that is given it knows the writer has left
// the group (or missed its heartbeats for the session timeout, 6 s) and asks to be promoted. The
// group only decides who tries; the fence of the log decides who wins, so a writer that was only
// slow is fenced, never doubled.
//
// The member reads nothing: its partition is paused as soon as it is assigned.
// Thread safety: Start and Stop from one thread; the callback runs on the member's own thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "domain/result.h"
#include "webhooks/kafka_config.h"

namespace esign::replication {

struct WriterGroupOptions {
  std::string brokers;  // required
  std::string shard = "main";
  bool writer = false;  // this node writes: it sorts first
  // Called once, when this standby is given the partition.
  std::function<void()> on_writer_gone;
  std::chrono::milliseconds session_timeout{6000};
  webhooks::KafkaSettings settings;  // more settings (tests)
};

// The group of a shard: contractd-writer-<shard>.
std::string WriterGroupOf(const std::string& shard);

class WriterGroup {
 public:
  static Result<std::unique_ptr<WriterGroup>> Start(WriterGroupOptions options);
  ~WriterGroup();
  WriterGroup(const WriterGroup&) = delete;
  WriterGroup& operator=(const WriterGroup&) = delete;

 private:
  explicit WriterGroup(WriterGroupOptions options) : options_(std::move(options)) {}
  static void OnRebalance(rd_kafka_t* handle, rd_kafka_resp_err_t err,
                          rd_kafka_topic_partition_list_t* partitions, void* opaque);

  const WriterGroupOptions options_;
  webhooks::KafkaHandle member_;
  bool told_ = false;  // on the member's thread
  std::jthread poller_;
};

}  // namespace esign::replication
