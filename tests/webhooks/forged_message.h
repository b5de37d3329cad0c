// Writes a message to a topic as any local Kafka client can (`kcat -P`): without a contractd-mac
// header, or with one made under another key. For the tests showing that such a message changes
// nothing (webhooks/message_auth.h).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "webhooks/kafka_config.h"
#include "webhooks/message_auth.h"

namespace esign::testing {

inline void ProduceForged(const std::string& brokers, const std::string& topic,
                          const std::string& key, const std::string& value,
                          const std::optional<std::string>& mac = std::nullopt) {
  auto conf = webhooks::MakeKafkaConf({{"bootstrap.servers", brokers}});
  ASSERT_TRUE(conf) << conf.error().message;
  auto producer = webhooks::MakeKafkaHandle(RD_KAFKA_PRODUCER, std::move(*conf));
  ASSERT_TRUE(producer) << producer.error().message;
  rd_kafka_headers_t* headers = rd_kafka_headers_new(1);
  if (mac) rd_kafka_header_add(headers, webhooks::kMacHeader, -1, mac->data(), mac->size());
  const rd_kafka_resp_err_t err = rd_kafka_producev(
      producer->get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
      RD_KAFKA_V_VALUE(const_cast<char*>(value.data()), value.size()), RD_KAFKA_V_HEADERS(headers),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) rd_kafka_headers_destroy(headers);  // else the message's
  ASSERT_EQ(err, RD_KAFKA_RESP_ERR_NO_ERROR) << rd_kafka_err2str(err);
  ASSERT_EQ(rd_kafka_flush(producer->get(), 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
}

// The same message twice: without a contractd-mac, and with one made under a key of its own.
inline void ProduceForgedTwice(const std::string& brokers, const std::string& topic,
                               const std::string& key, const std::string& value) {
  ProduceForged(brokers, topic, key, value);
  auto other = webhooks::MessageAuth::FromKey(std::string(webhooks::kMessageKeyBytes, 'x'));
  ASSERT_TRUE(other);
  ProduceForged(brokers, topic, key, value, other->Mac(topic, key, value));
}

}  // namespace esign::testing
