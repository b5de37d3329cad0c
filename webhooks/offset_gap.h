// CommittedBelowEarliest: the partitions where a consumer group would resume below what the
// cluster still holds. Retention (or an embedded cluster's 5 MiB per partition) removes messages
// whether or not the group has read them; librdkafka then resets the group to the earliest offset
// (auto.offset.reset) and says nothing the application sees. This is the check that says it.
// Thread safety: as the consumer's own calls (rd_kafka_committed and
// rd_kafka_query_watermark_offsets block for at most `timeout` each).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <librdkafka/rdkafka.h>

#include "webhooks/offset_tracker.h"

namespace esign::webhooks {

struct OffsetGap {
  TopicPartition partition;
  int64_t committed = 0;  // where the group would have resumed
  int64_t earliest = 0;   // the first offset the cluster still holds
};

// Of `partitions`, those whose committed offset is below the low watermark. A partition without
// a committed offset, or whose offsets do not come within `timeout`, is not a gap.
std::vector<OffsetGap> CommittedBelowEarliest(rd_kafka_t* consumer,
                                              const rd_kafka_topic_partition_list_t& partitions,
                                              std::chrono::milliseconds timeout);

// The log line for a gap.
std::string DescribeGap(const OffsetGap& gap);

}  // namespace esign::webhooks
