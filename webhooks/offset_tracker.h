// OffsetTracker: which offset of each consumed partition the dispatcher may commit. A message is
// settled once every delivery it caused has succeeded (or its endpoint was deleted); until then
// its offset is held, and the partition's committable offset stays at the oldest held message. So
// a member that dies, or loses the partition in a rebalance, leaves every unsettled message to be
// read again by the next owner, which finds the outcomes recorded so far and resumes the rest.
// Thread safety: none; the dispatcher guards it with a mutex.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace esign::webhooks {

struct TopicPartition {
  std::string topic;
  int32_t partition = 0;
  auto operator<=>(const TopicPartition&) const = default;
};

class OffsetTracker {
 public:
  // A message was read; the deliveries named are pending because of it, and hold it.
  void Consumed(const TopicPartition& partition, int64_t offset,
                const std::vector<std::string>& pending_deliveries);
  // A delivery has its outcome: the messages it held are released.
  void Settled(const std::string& delivery_id);
  // The partitions are someone else's now: forgets them. Returns the deliveries that no message
  // holds any more (their lanes drop them: the next owner sends them).
  std::vector<std::string> Revoke(const std::vector<TopicPartition>& partitions);
  // The offset to commit (the next message to read) of every partition whose committable offset
  // moved since the last call.
  std::vector<std::pair<TopicPartition, int64_t>> TakeCommittable();

 private:
  struct PartitionState {
    std::map<int64_t, size_t> held;  // offset -> deliveries still pending
    int64_t next = 0;                // after the last message read
    int64_t reported = -1;           // the committable offset last returned
  };
  struct Hold {
    TopicPartition partition;
    int64_t offset = 0;
  };
  std::map<TopicPartition, PartitionState> partitions_;
  std::map<std::string, std::vector<Hold>> holds_;  // by delivery id
};

}  // namespace esign::webhooks
