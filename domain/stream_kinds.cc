#include "domain/stream_kinds.h"

namespace esign {
namespace {

const StreamKindInfo* InfoOfStream(std::string_view stream_id) {
  for (const StreamKindInfo& info : kStreamKinds) {
    if (stream_id.starts_with(info.prefix)) return &info;
  }
  return nullptr;
}

}  // namespace

std::string_view StreamPrefix(StreamKind kind) {
  for (const StreamKindInfo& info : kStreamKinds) {
    if (info.kind == kind) return info.prefix;
  }
  return {};
}

std::string StreamIdOf(StreamKind kind, std::string_view id) {
  std::string stream_id(StreamPrefix(kind));
  stream_id.append(id);
  return stream_id;
}

std::string ContractStreamId(std::string_view contract_id) {
  return StreamIdOf(StreamKind::kContract, contract_id);
}

std::string TemplateStreamId(std::string_view template_id) {
  return StreamIdOf(StreamKind::kTemplate, template_id);
}

std::string ClientStreamId(std::string_view client_id) {
  return StreamIdOf(StreamKind::kClient, client_id);
}

std::string EndpointStreamId(std::string_view endpoint_id) {
  return StreamIdOf(StreamKind::kWebhookEndpoint, endpoint_id);
}

std::optional<std::string_view> IdInStream(StreamKind kind, std::string_view stream_id) {
  const std::string_view prefix = StreamPrefix(kind);
  if (!stream_id.starts_with(prefix)) return std::nullopt;
  return stream_id.substr(prefix.size());
}

std::optional<StreamKind> KindOfStream(std::string_view stream_id) {
  const StreamKindInfo* info = InfoOfStream(stream_id);
  if (info == nullptr) return std::nullopt;
  return info->kind;
}

PublishedTopic TopicOfStream(std::string_view stream_id) {
  const StreamKindInfo* info = InfoOfStream(stream_id);
  return info != nullptr ? info->topic : PublishedTopic::kContractEvents;
}

}  // namespace esign
