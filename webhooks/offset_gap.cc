#include "webhooks/offset_gap.h"

namespace esign::webhooks {

std::vector<OffsetGap> CommittedBelowEarliest(rd_kafka_t* consumer,
                                              const rd_kafka_topic_partition_list_t& partitions,
                                              std::chrono::milliseconds timeout) {
  std::vector<OffsetGap> gaps;
  rd_kafka_topic_partition_list_t* committed = rd_kafka_topic_partition_list_copy(&partitions);
  const int timeout_ms = static_cast<int>(timeout.count());
  if (rd_kafka_committed(consumer, committed, timeout_ms) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    for (int i = 0; i < committed->cnt; ++i) {
      const rd_kafka_topic_partition_t& p = committed->elems[i];
      if (p.err != RD_KAFKA_RESP_ERR_NO_ERROR || p.offset < 0) continue;  // none committed
      int64_t low = 0;
      int64_t high = 0;
      if (rd_kafka_query_watermark_offsets(consumer, p.topic, p.partition, &low, &high,
                                           timeout_ms) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        continue;
      }
      if (p.offset < low) gaps.push_back({{p.topic, p.partition}, p.offset, low});
    }
  }
  rd_kafka_topic_partition_list_destroy(committed);
  return gaps;
}

std::string DescribeGap(const OffsetGap& gap) {
  return gap.partition.topic + "[" + std::to_string(gap.partition.partition) +
         "]: the committed offset " + std::to_string(gap.committed) +
         " is below the earliest the cluster still holds, " + std::to_string(gap.earliest) +
         ": the messages between were removed unread (retention); reading resumes at " +
         std::to_string(gap.earliest);
}

}  // namespace esign::webhooks
