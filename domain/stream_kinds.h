// Every kind of stream in the log, in one table: the prefix of its stream ids and the Kafka topic
// the relay publishes its events to. A stream id is the prefix followed by the id of what the
// stream is about ("contract-ctr_01J..."), so the kind of any record is known from its stream id.
// Pure; safe from any thread.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace esign {

enum class StreamKind {
  kContract,         // "contract-<contractId>": the contract aggregate
  kTemplate,         // "template-<templateId>": each import of a template
  kClient,           // "client-<clientId>": machine clients, their secret hashes, revocations
  kWebhookEndpoint,  // "webhook-<endpointId>": integrator configuration, without secrets
  kIdempotency,      // "idempotency-<hash>": Idempotency-Key reservations
  kOrganization,     // "organization-<organizationId>": its notification address
  kDocument,         // "document-<documentId>": an upload and its deletion
  kBulkSend,         // "bulk_send-<bulkSendId>": a bulk send job (domain/bulk_send.h)
};

// Where the relay publishes the events of a stream (webhooks/kafka_relay.h). Never published:
// the streams that hold secrets or bookkeeping. Endpoints go to their own topic, for webhook
// dispatchers outside contractd.
enum class PublishedTopic { kNone, kContractEvents, kEndpoints };

// The topics' default names.
inline constexpr std::string_view kContractEventsTopic = "contract-events";
inline constexpr std::string_view kEndpointsTopic = "webhook-endpoints";

struct StreamKindInfo {
  StreamKind kind;
  std::string_view prefix;
  PublishedTopic topic;
};

inline constexpr std::array<StreamKindInfo, 8> kStreamKinds = {{
    {StreamKind::kContract, "contract-", PublishedTopic::kContractEvents},
    {StreamKind::kTemplate, "template-", PublishedTopic::kContractEvents},
    {StreamKind::kClient, "client-", PublishedTopic::kNone},
    {StreamKind::kWebhookEndpoint, "webhook-", PublishedTopic::kEndpoints},
    {StreamKind::kIdempotency, "idempotency-", PublishedTopic::kNone},
    // An address is personal data, and the contract events name no organization's address.
    {StreamKind::kOrganization, "organization-", PublishedTopic::kNone},
    // An upload belongs to its organization alone; contract events name its hashes.
    {StreamKind::kDocument, "document-", PublishedTopic::kNone},
    // Analytics see a job's progress; the rows themselves stay in their blob.
    {StreamKind::kBulkSend, "bulk_send-", PublishedTopic::kContractEvents},
}};

std::string_view StreamPrefix(StreamKind kind);
// The prefix of `kind` followed by `id`.
std::string StreamIdOf(StreamKind kind, std::string_view id);
std::string ContractStreamId(std::string_view contract_id);
std::string TemplateStreamId(std::string_view template_id);
std::string ClientStreamId(std::string_view client_id);
std::string EndpointStreamId(std::string_view endpoint_id);

// The id after the prefix when `stream_id` is of `kind` (possibly empty); nothing otherwise.
std::optional<std::string_view> IdInStream(StreamKind kind, std::string_view stream_id);
// The kind whose prefix `stream_id` starts with; nothing for a stream of no kind in the table.
std::optional<StreamKind> KindOfStream(std::string_view stream_id);
// The topic of the stream's kind; a stream of no kind in the table goes to contract-events.
PublishedTopic TopicOfStream(std::string_view stream_id);

}  // namespace esign
