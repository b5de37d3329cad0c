// The stream kinds table: ids to stream ids and back, and where each kind is published.
#include "domain/stream_kinds.h"

#include <gtest/gtest.h>

#include <set>

namespace esign {
namespace {

TEST(StreamKindsTest, InternalStreamsAreNotPublishedAndEndpointsHaveTheirOwnTopic) {
  EXPECT_EQ(TopicOfStream("client-cli_1"), PublishedTopic::kNone);
  EXPECT_EQ(TopicOfStream("idempotency-abc"), PublishedTopic::kNone);
  EXPECT_EQ(TopicOfStream("webhook-whe_1"), PublishedTopic::kEndpoints);
  EXPECT_EQ(TopicOfStream("contract-ctr_1"), PublishedTopic::kContractEvents);
  EXPECT_EQ(TopicOfStream("template-tpl_1"), PublishedTopic::kContractEvents);
  EXPECT_EQ(TopicOfStream("session-ses_1"), PublishedTopic::kContractEvents);
}

TEST(StreamKindsTest, StreamIdsAreThePrefixAndTheId) {
  EXPECT_EQ(ContractStreamId("ctr_1"), "contract-ctr_1");
  EXPECT_EQ(TemplateStreamId("tpl_1"), "template-tpl_1");
  EXPECT_EQ(ClientStreamId("cli_1"), "client-cli_1");
  EXPECT_EQ(EndpointStreamId("whe_1"), "webhook-whe_1");
  EXPECT_EQ(StreamIdOf(StreamKind::kIdempotency, "ab12"), "idempotency-ab12");
}

TEST(StreamKindsTest, EveryKindReadsBackItsOwnIdsOnly) {
  std::set<std::string_view> prefixes;
  for (const StreamKindInfo& info : kStreamKinds) {
    EXPECT_TRUE(prefixes.insert(info.prefix).second) << info.prefix;
    const std::string stream_id = StreamIdOf(info.kind, "x_1");
    EXPECT_EQ(KindOfStream(stream_id), info.kind) << stream_id;
    EXPECT_EQ(IdInStream(info.kind, stream_id), "x_1") << stream_id;
    EXPECT_EQ(TopicOfStream(stream_id), info.topic) << stream_id;
    for (const StreamKindInfo& other : kStreamKinds) {
      if (other.kind != info.kind) {
        EXPECT_FALSE(IdInStream(other.kind, stream_id)) << stream_id;
      }
    }
  }
  EXPECT_FALSE(KindOfStream("session-ses_1"));
  EXPECT_FALSE(IdInStream(StreamKind::kContract, "contracts"));
  EXPECT_EQ(IdInStream(StreamKind::kContract, "contract-"), "");
}

}  // namespace
}  // namespace esign
