#include "replication/writer_group.h"

#include "base/thread_name.h"
#include "delivery/log_line.h"
#include "domain/id_generator.h"
#include "replication/replicated_log.h"

namespace esign::replication {

std::string WriterGroupOf(const std::string& shard) { return "contractd-writer-" + shard; }

Result<std::unique_ptr<WriterGroup>> WriterGroup::Start(WriterGroupOptions options) {
  std::unique_ptr<WriterGroup> group(new WriterGroup(std::move(options)));
  const WriterGroupOptions& o = group->options_;
  // Member ids begin with the client id: "0-writer" sorts before "1-standby".
  const std::string client_id =
      std::string("contractd-log-") + (o.writer ? "0-writer" : "1-standby");
  webhooks::KafkaSettings more{{"partition.assignment.strategy", "range"},
                               {"session.timeout.ms", std::to_string(o.session_timeout.count())},
                               {"heartbeat.interval.ms", "500"},
                               {"enable.auto.commit", "false"},
                               {"allow.auto.create.topics", "false"}};
  more.insert(more.end(), o.settings.begin(), o.settings.end());
  auto member = webhooks::SubscribeConsumer(
      webhooks::GroupMemberSettings(o.brokers, WriterGroupOf(o.shard), client_id, more),
      {LogTopicOf(o.shard)}, [raw = group.get()](rd_kafka_conf_t* conf) {
        rd_kafka_conf_set_opaque(conf, raw);
        rd_kafka_conf_set_rebalance_cb(conf, &WriterGroup::OnRebalance);
      });
  if (!member) return Fail(member.error());
  group->member_ = std::move(*member);
  group->poller_ = std::jthread([raw = group.get()](const std::stop_token& stop) {
    NameThisThread("esign-log-group");
    while (!stop.stop_requested()) {
      // Serves the heartbeats and the rebalance callback; the partition is paused, so no
      // message comes.
      if (rd_kafka_message_t* message = rd_kafka_consumer_poll(raw->member_.get(), 100)) {
        rd_kafka_message_destroy(message);
      }
    }
  });
  return group;
}

WriterGroup::~WriterGroup() {
  if (poller_.joinable()) {
    poller_.request_stop();
    poller_.join();
  }
  // Leaves the group at once: the next writer need not wait for the session timeout.
  member_.reset();
}

void WriterGroup::OnRebalance(rd_kafka_t* handle, rd_kafka_resp_err_t err,
                              rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  auto* group = static_cast<WriterGroup*>(opaque);
  if (err != RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    rd_kafka_assign(handle, nullptr);
    return;
  }
  rd_kafka_assign(handle, partitions);
  rd_kafka_pause_partitions(handle, partitions);
  if (partitions->cnt == 0 || group->options_.writer || group->told_) return;
  group->told_ = true;
  delivery::LogLine("replicated log", "the writer left the group " +
                                          WriterGroupOf(group->options_.shard) +
                                          ": this standby tries to take over");
  if (group->options_.on_writer_gone) group->options_.on_writer_gone();
}

}  // namespace esign::replication
