// The contractd-mac of the messages on contractd's topics: what it covers, the key file, and the
// gate that readers put in front of their work, read back from the embedded cluster.
#include "webhooks/message_auth.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "domain/id_generator.h"
#include "tests/support/temp_dir.h"
#include "tests/webhooks/forged_message.h"
#include "webhooks/embedded_kafka.h"
#include "webhooks/topic_writer.h"

namespace esign::webhooks {
namespace {

using namespace std::string_literals;

MessageAuth NewAuth() {
  auto auth = MessageAuth::FromKey(RandomBytes(kMessageKeyBytes));
  EXPECT_TRUE(auth) << auth.error().message;
  return auth ? *auth : MessageAuth();
}

const std::string kValue = R"({"eventId":"evt_1","type":"contract.completed"})";

TEST(MessageAuthTest, ASignedMessageIsValidAndNoPartOfItCanChange) {
  const MessageAuth auth = NewAuth();
  const std::string mac = auth.Mac("contract-events", "ctr_1", kValue);
  EXPECT_TRUE(auth.Valid("contract-events", "ctr_1", kValue, mac));
  // Another value, message key, topic, or a key of its own: not valid.
  EXPECT_FALSE(auth.Valid("contract-events", "ctr_1", kValue + " ", mac));
  EXPECT_FALSE(auth.Valid("contract-events", "ctr_2", kValue, mac));
  EXPECT_FALSE(auth.Valid("webhook-retries", "ctr_1", kValue, mac));
  EXPECT_FALSE(NewAuth().Valid("contract-events", "ctr_1", kValue, mac));
  // A missing, empty, cut or altered header.
  EXPECT_FALSE(auth.Valid("contract-events", "ctr_1", kValue, ""));
  EXPECT_FALSE(auth.Valid("contract-events", "ctr_1", kValue, mac.substr(0, mac.size() - 1)));
  std::string altered = mac;
  altered[3] = altered[3] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(auth.Valid("contract-events", "ctr_1", kValue, altered));
  // Without a key nothing is valid.
  EXPECT_FALSE(MessageAuth().Valid("contract-events", "ctr_1", kValue, mac));
  EXPECT_FALSE(MessageAuth::FromKey("short"));
}

TEST(MessageAuthTest, TheBoundaryBetweenKeyAndValueCannotMove) {
  const MessageAuth auth = NewAuth();
  // Both sign the bytes "t\0a\0b\0c"; a key holding 0x00 is never valid.
  const std::string mac = auth.Mac("t", "a", "b\0c"s);
  EXPECT_TRUE(auth.Valid("t", "a", "b\0c"s, mac));
  EXPECT_FALSE(auth.Valid("t", "a\0b"s, "c", mac));
}

TEST(MessageAuthTest, ContractdCreatesTheKeyFileOnceAndDispatchersReadIt) {
  esign::testing::TempDir dir;
  auto missing = MessageAuth::Load(dir.path());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("kafka-message-key"), std::string::npos);

  auto created = MessageAuth::LoadOrCreate(dir.path());
  ASSERT_TRUE(created) << created.error().message;
  const std::string path = dir.path() + "/kafka-message-key";
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_size, static_cast<off_t>(kMessageKeyBytes));
  // The same key for contractd's next start and for a dispatcher.
  auto again = MessageAuth::LoadOrCreate(dir.path());
  auto read = MessageAuth::Load(dir.path());
  ASSERT_TRUE(again && read);
  const std::string mac = created->Mac("contract-events", "ctr_1", kValue);
  EXPECT_TRUE(again->Valid("contract-events", "ctr_1", kValue, mac));
  EXPECT_TRUE(read->Valid("contract-events", "ctr_1", kValue, mac));
  EXPECT_EQ(read->Id(), created->Id());
  EXPECT_NE(read->Id(), NewAuth().Id());

  std::filesystem::remove(path);
  std::ofstream(path) << "too short";
  auto corrupt = MessageAuth::Load(dir.path());
  ASSERT_FALSE(corrupt);
  EXPECT_EQ(corrupt.error().code, ErrorCode::kCorruption);
}

TEST(MessageAuthTest, TheGateAdmitsOnlyWhatAWriterWithTheKeyWrote) {
  auto kafka = EmbeddedKafka::Start();
  ASSERT_TRUE(kafka) << kafka.error().message;
  const std::string brokers = (*kafka)->bootstraps();
  const MessageAuth auth = NewAuth();
  auto writer = TopicWriter::Start({.brokers = brokers, .auth = auth});
  ASSERT_TRUE(writer) << writer.error().message;
  EXPECT_FALSE(TopicWriter::Start({.brokers = brokers}));  // no key: refused
  esign::testing::ProduceForgedTwice(brokers, "gate-test", "ctr_1", "forged");
  ASSERT_TRUE((*writer)->Write({{"gate-test", "ctr_1", "genuine"}}));

  auto conf = MakeKafkaConf({{"bootstrap.servers", brokers},
                             {"group.id", "gate-test"},
                             {"auto.offset.reset", "earliest"}});
  ASSERT_TRUE(conf);
  auto consumer = MakeKafkaHandle(RD_KAFKA_CONSUMER, std::move(*conf));
  ASSERT_TRUE(consumer);
  rd_kafka_poll_set_consumer(consumer->get());
  rd_kafka_topic_partition_list_t* topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, "gate-test", RD_KAFKA_PARTITION_UA);
  ASSERT_EQ(rd_kafka_subscribe(consumer->get(), topics), RD_KAFKA_RESP_ERR_NO_ERROR);
  rd_kafka_topic_partition_list_destroy(topics);

  MessageGate gate(auth, "message auth test");
  std::vector<std::string> admitted;
  size_t read = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (read < 3 && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* message = rd_kafka_consumer_poll(consumer->get(), 100);
    if (message == nullptr) continue;
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      ++read;
      if (gate.Admit(*message)) {
        admitted.emplace_back(static_cast<const char*>(message->payload), message->len);
      }
    }
    rd_kafka_message_destroy(message);
  }
  rd_kafka_consumer_close(consumer->get());
  EXPECT_EQ(read, 3u);
  EXPECT_EQ(admitted, std::vector<std::string>{"genuine"});
  EXPECT_EQ(gate.dropped(), 2u);
}

}  // namespace
}  // namespace esign::webhooks
