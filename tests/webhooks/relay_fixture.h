// A RocksDB log in a temporary directory, the embedded Kafka cluster and a relay publishing the one
// to the other: the setting of the relay's tests and of the tests of what reads its topics.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "domain/id_generator.h"
#include "eventstore/rocksdb_event_store.h"
#include "tests/support/temp_dir.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/kafka_relay.h"
#include "webhooks/message_auth.h"

namespace esign::testing {

class RelayFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    eventstore::RocksStoreOptions options;
    options.data_dir = dir_.path();
    auto store = eventstore::RocksEventStore::Open(options);
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
    auto auth = webhooks::MessageAuth::FromKey(RandomBytes(webhooks::kMessageKeyBytes));
    ASSERT_TRUE(auth) << auth.error().message;
    auth_ = *auth;
  }
  // Derived fixtures stop what reads the store before calling this.
  void TearDown() override {
    relay_.reset();
    store_->Close();
  }

  void StartKafka(const webhooks::EmbeddedKafkaOptions& options = {}) {
    auto kafka = webhooks::EmbeddedKafka::Start(options);
    ASSERT_TRUE(kafka) << kafka.error().message;
    kafka_ = std::move(*kafka);
  }

  void StartRelay(const std::string& cluster = "test-cluster",
                  size_t max_in_flight_bytes = webhooks::KafkaRelayOptions{}.max_in_flight_bytes) {
    auto checkpoint = webhooks::RelayCheckpoint::Open(*store_, "contract-events");
    ASSERT_TRUE(checkpoint);
    webhooks::KafkaRelayOptions options;
    options.brokers = kafka_->bootstraps();
    options.cluster = cluster;
    options.auth = auth_;
    options.max_in_flight_bytes = max_in_flight_bytes;
    auto relay = webhooks::KafkaRelay::Start(*store_, std::move(*checkpoint), options);
    ASSERT_TRUE(relay) << relay.error().message;
    relay_ = std::move(*relay);
  }

  TempDir dir_;
  std::unique_ptr<eventstore::RocksEventStore> store_;
  std::unique_ptr<webhooks::EmbeddedKafka> kafka_;
  std::unique_ptr<webhooks::KafkaRelay> relay_;
  webhooks::MessageAuth auth_;  // the relay's message key
};

}  // namespace esign::testing
