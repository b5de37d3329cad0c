// The pure rules of webhook endpoints (URLs, bodies, events) and the secret files.
#include "webhooks/endpoint.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>

#include "tests/support/temp_dir.h"
#include "webhooks/endpoint_secrets.h"

namespace esign::webhooks {
namespace {

bool Accepted(std::string_view url, bool allow_loopback = false) {
  Details details;
  CheckWebhookUrl(url, UrlPolicy{.allow_loopback = allow_loopback}, details);
  return details.empty();
}

TEST(WebhookUrlTest, HttpsToPublicHostsIsAccepted) {
  EXPECT_TRUE(Accepted("https://hooks.example.com/contracts"));
  EXPECT_TRUE(Accepted("https://hooks.example.com:8443/a?b=c"));
  EXPECT_TRUE(Accepted("https://93.184.216.34/hook"));
  EXPECT_TRUE(Accepted("https://[2606:2800:220:1::248]/hook"));
}

TEST(WebhookUrlTest, OtherSchemesCredentialsAndFragmentsAreRefused) {
  EXPECT_FALSE(Accepted("http://hooks.example.com/"));
  EXPECT_FALSE(Accepted("ftp://hooks.example.com/"));
  EXPECT_FALSE(Accepted("hooks.example.com/x"));
  EXPECT_FALSE(Accepted("https://user:pass@hooks.example.com/"));
  EXPECT_FALSE(Accepted("https://hooks.example.com/#x"));
  EXPECT_FALSE(Accepted("https:///path"));
  EXPECT_FALSE(Accepted(""));
  EXPECT_FALSE(Accepted("https://example.com/" + std::string(2100, 'a')));
}

TEST(WebhookUrlTest, PrivateLinkLocalAndReservedAddressesAreRefused) {
  for (const char* url :
       {"https://10.1.2.3/", "https://172.16.0.1/", "https://192.168.1.1/",
        "https://169.254.169.254/", "https://0.0.0.0/", "https://100.64.0.1/", "https://224.0.0.1/",
        "https://[fe80::1]/", "https://[fd00::1]/", "https://[::]/", "https://[::ffff:10.0.0.1]/",
        "https://[::ffff:169.254.169.254]/"}) {
    EXPECT_FALSE(Accepted(url)) << url;
    EXPECT_FALSE(Accepted(url, true)) << url;
  }
}

TEST(WebhookUrlTest, IPv6FormsThatReachIPv4OrLocalNetworksAreRefused) {
  for (const char* url : {
           "https://[::127.0.0.1]/",          // IPv4-compatible (deprecated) loopback
           "https://[::10.0.0.1]/",           // IPv4-compatible private
           "https://[::8.8.8.8]/",            // IPv4-compatible, any
           "https://[64:ff9b:1::a00:1]/",     // local-use NAT64
           "https://[64:ff9b:1:ffff::1]/",    // anywhere in its /48
           "https://[2002:7f00:1::1]/",       // 6to4 of 127.0.0.1
           "https://[2002:808:808::1]/",      // 6to4 of a public address: relayed all the same
           "https://[2001:0:4136:e378::1]/",  // Teredo
           "https://[fec0::1]/",              // site-local
           "https://[feff::1]/",              // site-local, end of its /10
       }) {
    EXPECT_FALSE(Accepted(url)) << url;
    EXPECT_FALSE(Accepted(url, true)) << url;
  }
  // Public IPv6, also next to the refused prefixes, stays accepted.
  for (const char* url : {"https://[64:ff9b::808:808]/", "https://[64:ff9b:2::1]/",
                          "https://[2003::1]/", "https://[2001:4860::8888]/"}) {
    EXPECT_TRUE(Accepted(url)) << url;
  }
  // The address itself, as the sender checks what a name resolves to.
  EXPECT_TRUE(IsNonPublicAddress("::127.0.0.1"));
  EXPECT_TRUE(IsNonPublicAddress("fec0::1"));
  EXPECT_FALSE(IsLoopbackAddress("::127.0.0.1"));  // refused even when loopback is allowed
}

TEST(WebhookUrlTest, HostsWithControlCharactersOrSpacesAreRefused) {
  for (const char* url : {"https://hooks.example.com%0a.evil/", "https://hooks%00.example.com/",
                          "https://hooks%20example.com/", "https://hooks.example.com%0d%0aX:1/",
                          "https://hooks%09.example.com/", "https://hooks%7f.example.com/"}) {
    EXPECT_FALSE(Accepted(url)) << url;
    Details details;
    CheckWebhookUrl(url, UrlPolicy{}, details);
    ASSERT_EQ(details.size(), 1u) << url;
    EXPECT_EQ(details[0].issue, "the host must not contain control characters or spaces");
  }
  // As an update too.
  EXPECT_FALSE(ParseUpdateEndpoint(
      boost::json::parse(R"({"url":"https://a%0a.example.com/"})").as_object(), UrlPolicy{}));
}

TEST(WebhookUrlTest, ARefusalDoesNotRepeatTheAddress) {
  Details details;
  CheckWebhookUrl("https://[::ffff:10.1.2.3]/", UrlPolicy{}, details);
  ASSERT_EQ(details.size(), 1u);
  EXPECT_EQ(details[0].issue, "the host is not a public address");
}

TEST(WebhookUrlTest, LoopbackOnlyWhenAllowedAndThenAlsoOverHttp) {
  for (const char* url : {"http://127.0.0.1:9000/hook", "https://127.0.0.1/", "http://[::1]:80/",
                          "http://localhost:8080/x", "https://[::ffff:127.0.0.1]/"}) {
    EXPECT_FALSE(Accepted(url)) << url;
    EXPECT_TRUE(Accepted(url, true)) << url;
  }
}

TEST(EndpointBodyTest, CreateNeedsUrlAndKnownDistinctEventTypes) {
  const UrlPolicy policy;
  auto parse = [&](std::string_view json) {
    return ParseCreateEndpoint(boost::json::parse(json).as_object(), policy);
  };
  auto good = parse(R"({"url":"https://h.example/x","eventTypes":["contract.sent"],
                        "description":"d","enabled":false})");
  ASSERT_TRUE(good);
  EXPECT_EQ(*good->url, "https://h.example/x");
  EXPECT_EQ(*good->enabled, false);

  auto missing = parse(R"({})");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().details.size(), 2u);
  auto bad = parse(R"({"url":"https://h.example/x","eventTypes":["contract.sent","nope",
                       "contract.sent"],"extra":1,"enabled":"yes","description":7})");
  ASSERT_FALSE(bad);
  std::vector<std::string> fields;
  for (const auto& d : bad.error().details) fields.push_back(d.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"extra", "eventTypes[1]", "eventTypes[2]",
                                              "description", "enabled"}));
  EXPECT_FALSE(parse(R"({"url":"https://h.example/x","eventTypes":[]})"));
  // Void, expiry and reminders are types of their own.
  auto lifecycle = parse(R"({"url":"https://h.example/x","eventTypes":["contract.voided",
                             "contract.expired","participant.reminded"]})");
  ASSERT_TRUE(lifecycle) << lifecycle.error().message;
  EXPECT_EQ(lifecycle->event_types->size(), 3u);
}

TEST(EndpointBodyTest, UpdateNeedsAtLeastOneField) {
  EXPECT_FALSE(ParseUpdateEndpoint(boost::json::object{}, UrlPolicy{}));
  EXPECT_TRUE(ParseUpdateEndpoint(boost::json::parse(R"({"enabled":true})").as_object(), {}));
}

eventstore::EventRecord Event(std::string_view type, std::string data, uint64_t version) {
  eventstore::EventRecord record;
  record.position = GlobalPosition(10 + version);
  record.version = StreamVersion(version);
  record.type = std::string(type);
  record.data = std::move(data);
  return record;
}

TEST(EndpointEventsTest, ReplayAppliesCreateUpdateAndDelete) {
  WebhookEndpoint endpoint{.id = "whe_1",
                           .organization_id = "org_a",
                           .url = "https://h.example/x",
                           .event_types = {"contract.sent"},
                           .created_at = "2026-01-01T00:00:00.000000Z"};
  EndpointFields change;
  change.enabled = false;
  change.url = endpoint.url;  // unchanged: not in the event
  const auto updated = EndpointUpdatedData(endpoint, change, "2026-01-02T00:00:00.000000Z");
  ASSERT_TRUE(updated);
  EXPECT_EQ(boost::json::parse(*updated).as_object().size(), 2u);
  EXPECT_FALSE(EndpointUpdatedData(endpoint, EndpointFields{.url = endpoint.url}, "t"));

  std::vector<eventstore::EventRecord> events{
      Event(kEndpointCreated, EndpointCreatedData(endpoint), 1),
      Event(kEndpointUpdated, *updated, 2)};
  auto replayed = ReplayEndpoint(events);
  ASSERT_TRUE(replayed && *replayed);
  EXPECT_EQ((*replayed)->organization_id, "org_a");
  EXPECT_FALSE((*replayed)->enabled);
  EXPECT_EQ((*replayed)->version, 2u);
  EXPECT_EQ((*replayed)->created_position, 11u);
  EXPECT_EQ((*replayed)->updated_at, "2026-01-02T00:00:00.000000Z");
  events.push_back(Event(kEndpointDeleted, R"({"deletedAt":"x"})", 3));
  EXPECT_TRUE((*ReplayEndpoint(events))->deleted);
  EXPECT_FALSE(ReplayEndpoint({Event(kEndpointCreated, "{}", 1)}));
}

TEST(EndpointSecretsTest, SecretsAreFilesOfMode0600AndRotationOverlaps) {
  esign::testing::TempDir dir;
  auto secrets = EndpointSecrets::Open(dir.path());
  ASSERT_TRUE(secrets);
  auto first = (*secrets)->Create("whe_1");
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->starts_with("whsec_"));
  EXPECT_EQ(first->size(), 6u + 44u);  // base64 of 32 bytes
  struct stat st {};
  ASSERT_EQ(::stat((*secrets)->PathOf("whe_1").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  const int64_t now = 1'000'000'000;
  auto rotated = (*secrets)->Rotate("whe_1", now, 100);
  ASSERT_TRUE(rotated);
  EXPECT_NE(rotated->secret, *first);
  EXPECT_EQ(rotated->previous_expires_at, now + 100);
  EXPECT_EQ((*secrets)->Signing("whe_1", now + 99).value(),
            (std::vector<std::string>{rotated->secret, *first}));
  EXPECT_EQ((*secrets)->Signing("whe_1", now + 100).value(),
            (std::vector<std::string>{rotated->secret}));
  ASSERT_TRUE((*secrets)->Remove("whe_1"));
  EXPECT_EQ((*secrets)->Signing("whe_1", now).error().code, ErrorCode::kNotFound);
  EXPECT_FALSE((*secrets)->Create("../x"));
}

}  // namespace
}  // namespace esign::webhooks
