// Reads a Kafka topic from its beginning with a librdkafka consumer of a fresh group, for the
// tests of the relay: every message, in the order each partition holds them.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "webhooks/kafka_config.h"

namespace esign::testing {

struct TopicMessage {
  int32_t partition = 0;
  int64_t offset = 0;
  std::string key;
  std::string value;
  std::string mac;  // the contractd-mac header; empty when there is none
};

// The message's contractd-mac header (webhooks/message_auth.h); empty when there is none.
inline std::string MacHeader(const rd_kafka_message_t& message) {
  rd_kafka_headers_t* headers = nullptr;
  const void* mac = nullptr;
  size_t size = 0;
  if (rd_kafka_message_headers(&message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR ||
      rd_kafka_header_get_last(headers, "contractd-mac", &mac, &size) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
    return "";
  }
  return std::string(static_cast<const char*>(mac), size);
}

// Reads until `count` messages arrived or `timeout` passed; then, when `settle` is positive, on
// for that long, to catch messages beyond `count`.
inline std::vector<TopicMessage> ReadTopic(const std::string& brokers, const std::string& topic,
                                           size_t count, std::chrono::milliseconds timeout,
                                           std::chrono::milliseconds settle = {}) {
  static int groups = 0;
  std::vector<TopicMessage> messages;
  auto conf = webhooks::MakeKafkaConf(
      {{"bootstrap.servers", brokers},
       {"group.id", "topic-reader-" + std::to_string(::getpid()) + "-" + std::to_string(++groups)},
       {"auto.offset.reset", "earliest"},
       {"enable.auto.commit", "false"}});
  if (!conf) {
    ADD_FAILURE() << conf.error().message;
    return messages;
  }
  auto consumer = webhooks::MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  if (!consumer) {
    ADD_FAILURE() << consumer.error().message;
    return messages;
  }
  rd_kafka_t* rk = consumer->get();
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, topic.c_str(), RD_KAFKA_PARTITION_UA);
  EXPECT_EQ(rd_kafka_subscribe(rk, topics), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(topics);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  bool settling = false;
  while (std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(rk, 100);
    if (message == nullptr) continue;
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      messages.push_back({message->partition, message->offset,
                          std::string(static_cast<const char*>(message->key), message->key_len),
                          std::string(static_cast<const char*>(message->payload), message->len),
                          MacHeader(*message)});
    }
    rd_kafka_message_destroy(message);
    if (!settling && messages.size() >= count) {
      if (settle.count() <= 0) break;
      settling = true;
      deadline = std::chrono::steady_clock::now() + settle;
    }
  }
  rd_kafka_consumer_close(rk);
  return messages;
}

}  // namespace esign::testing
