#include "webhooks/endpoint.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <boost/url/parse.hpp>
#include <cstring>

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"

namespace esign::webhooks {
namespace {

bool IsKnownEventType(std::string_view type) {
  return std::find(kWebhookEventTypes.begin(), kWebhookEventTypes.end(), type) !=
         kWebhookEventTypes.end();
}

bool IsLoopbackName(std::string_view host) {
  return host == "localhost" || host.ends_with(".localhost");
}

// IPv4 in host order, from four bytes.
uint32_t V4(const unsigned char* b) {
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

bool InV4(uint32_t address, uint32_t network, int prefix) {
  const uint32_t mask = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
  return (address & mask) == (network & mask);
}

bool NonPublicV4(uint32_t a) {
  static constexpr std::array<std::pair<uint32_t, int>, 14> kRanges = {{
      {0x00000000, 8},   // "this network", unspecified
      {0x0A000000, 8},   // private
      {0x64400000, 10},  // shared address space (carrier-grade NAT)
      {0x7F000000, 8},   // loopback
      {0xA9FE0000, 16},  // link-local (cloud metadata services live here)
      {0xAC100000, 12},  // private
      {0xC0000000, 24},  // IETF protocol assignments
      {0xC0000200, 24},  // documentation
      {0xC0A80000, 16},  // private
      {0xC6120000, 15},  // benchmarking
      {0xC6336400, 24},  // documentation
      {0xCB007100, 24},  // documentation
      {0xE0000000, 4},   // multicast
      {0xF0000000, 4},   // reserved, broadcast
  }};
  return std::any_of(kRanges.begin(), kRanges.end(),
                     [a](const auto& range) { return InV4(a, range.first, range.second); });
}

std::optional<std::array<unsigned char, 16>> ParseV6(std::string_view text) {
  std::array<unsigned char, 16> bytes{};
  const std::string copy(text);
  if (inet_pton(AF_INET6, copy.c_str(), bytes.data()) != 1) return std::nullopt;
  return bytes;
}

std::optional<uint32_t> ParseV4(std::string_view text) {
  std::array<unsigned char, 4> bytes{};
  const std::string copy(text);
  if (inet_pton(AF_INET, copy.c_str(), bytes.data()) != 1) return std::nullopt;
  return V4(bytes.data());
}

// An IPv6 address that embeds an IPv4 one (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96).
std::optional<uint32_t> EmbeddedV4(const std::array<unsigned char, 16>& b) {
  static constexpr std::array<unsigned char, 12> kMapped = {0, 0, 0, 0, 0,    0,
                                                            0, 0, 0, 0, 0xff, 0xff};
  static constexpr std::array<unsigned char, 12> kNat64 = {0, 0x64, 0xff, 0x9b, 0, 0,
                                                           0, 0,    0,    0,    0, 0};
  if (std::memcmp(b.data(), kMapped.data(), 12) == 0 ||
      std::memcmp(b.data(), kNat64.data(), 12) == 0) {
    return V4(b.data() + 12);
  }
  return std::nullopt;
}

std::string Text(const boost::json::value& value) { return std::string(value.as_string()); }

void ParseFields(const boost::json::object& body, const UrlPolicy& policy, EndpointFields& fields,
                 Details& details) {
  RejectUnknownMembers(body, "", {"url", "eventTypes", "description", "enabled"}, details);
  if (const auto* url = Member(body, "url")) {
    if (!url->is_string()) {
      AddDetail(details, "url", "must be a string");
    } else {
      CheckWebhookUrl(url->as_string(), policy, details);
      fields.url = Text(*url);
    }
  }
  if (const auto* types = Member(body, "eventTypes")) {
    if (!types->is_array() || types->as_array().empty()) {
      AddDetail(details, "eventTypes", "must be a non-empty array of event types");
    } else {
      std::vector<std::string> list;
      const auto& array = types->as_array();
      for (size_t i = 0; i < array.size(); ++i) {
        const std::string path = IndexPath("eventTypes", i);
        if (!array[i].is_string() || !IsKnownEventType(array[i].as_string())) {
          AddDetail(details, path, "must be one of the webhook event types");
        } else if (std::find(list.begin(), list.end(), array[i].as_string()) != list.end()) {
          AddDetail(details, path, "duplicate");
        } else {
          list.push_back(Text(array[i]));
        }
      }
      fields.event_types = std::move(list);
    }
  }
  if (const auto* description = Member(body, "description")) {
    if (!description->is_string()) {
      AddDetail(details, "description", "must be a string");
    } else if (description->as_string().size() > kMaxDescriptionLength) {
      AddDetail(details, "description", "at most 500 bytes");
    } else {
      fields.description = Text(*description);
    }
  }
  if (const auto* enabled = Member(body, "enabled")) {
    if (!enabled->is_bool()) {
      AddDetail(details, "enabled", "must be a boolean");
    } else {
      fields.enabled = enabled->as_bool();
    }
  }
}

std::unexpected<Error> Invalid(const Details& details) {
  Error error{ErrorCode::kValidationFailed, "the webhook endpoint is not valid", details};
  return std::unexpected(std::move(error));
}

boost::json::array TypesJson(const std::vector<std::string>& types) {
  boost::json::array array;
  for (const auto& t : types) array.emplace_back(t);
  return array;
}

}  // namespace

bool IsLoopbackAddress(std::string_view address) {
  if (auto v4 = ParseV4(address)) return InV4(*v4, 0x7F000000, 8);
  if (auto v6 = ParseV6(address)) {
    static constexpr std::array<unsigned char, 16> kLoopback = {0, 0, 0, 0, 0, 0, 0, 0,
                                                                0, 0, 0, 0, 0, 0, 0, 1};
    if (*v6 == kLoopback) return true;
    if (auto embedded = EmbeddedV4(*v6)) return InV4(*embedded, 0x7F000000, 8);
  }
  return false;
}

bool IsNonPublicAddress(std::string_view address) {
  if (auto v4 = ParseV4(address)) return NonPublicV4(*v4);
  auto v6 = ParseV6(address);
  if (!v6) return true;  // not an address at all: never treated as public
  const auto& b = *v6;
  if (auto embedded = EmbeddedV4(b)) return NonPublicV4(*embedded);
  // ::/96: unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d.
  if (std::all_of(b.begin(), b.begin() + 12, [](unsigned char c) { return c == 0; })) return true;
  const auto starts = [&b](std::initializer_list<unsigned char> prefix) {
    return std::equal(prefix.begin(), prefix.end(), b.begin());
  };
  if (starts({0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01})) return true;  // local-use NAT64 64:ff9b:1::/48
  if (starts({0x20, 0x02})) return true;                   // 6to4 2002::/16, relays to any IPv4
  if (starts({0x20, 0x01, 0x00, 0x00})) return true;       // Teredo 2001::/32, likewise
  if (starts({0x20, 0x01, 0x0D, 0xB8})) return true;       // documentation
  if ((b[0] & 0xFE) == 0xFC) return true;                  // unique local fc00::/7
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return true;  // link-local fe80::/10
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) return true;  // site-local fec0::/10 (deprecated)
  if (b[0] == 0xFF) return true;                           // multicast
  return false;
}

void CheckWebhookUrl(std::string_view url, const UrlPolicy& policy, Details& details) {
  if (url.size() > kMaxUrlLength) {
    AddDetail(details, "url", "at most 2048 characters");
    return;
  }
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) {
    AddDetail(details, "url", "must be an absolute URL");
    return;
  }
  const std::string scheme(parsed->scheme());
  if (scheme != "https" && scheme != "http") {
    AddDetail(details, "url", "must be an https URL");
    return;
  }
  if (!parsed->has_authority() || parsed->encoded_host().empty()) {
    AddDetail(details, "url", "must name a host");
    return;
  }
  if (parsed->has_userinfo()) {
    AddDetail(details, "url", "must not carry credentials");
    return;
  }
  if (parsed->has_fragment()) {
    AddDetail(details, "url", "must not have a fragment");
    return;
  }
  std::string host;
  switch (parsed->host_type()) {
    case boost::urls::host_type::ipv4:
      host = std::string(parsed->encoded_host());
      break;
    case boost::urls::host_type::ipv6:
      host = parsed->host_ipv6_address().to_string();
      break;
    case boost::urls::host_type::name:
      host = parsed->host();
      // Percent-encoded control characters or spaces would reach the resolver and the logs.
      if (std::any_of(host.begin(), host.end(),
                      [](unsigned char c) { return c <= 0x20 || c == 0x7F; })) {
        AddDetail(details, "url", "the host must not contain control characters or spaces");
        return;
      }
      std::transform(host.begin(), host.end(), host.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      break;
    default:
      AddDetail(details, "url", "must name a host by DNS name or IP address");
      return;
  }
  const bool is_address = parsed->host_type() != boost::urls::host_type::name;
  const bool loopback = is_address ? IsLoopbackAddress(host) : IsLoopbackName(host);
  if (loopback) {
    if (!policy.allow_loopback) {
      AddDetail(details, "url", "loopback hosts are refused (see --webhook-allow-loopback)");
    }
    return;  // http or https to loopback, allowed
  }
  if (scheme != "https") {
    AddDetail(details, "url", "must be an https URL");
    return;
  }
  if (is_address && IsNonPublicAddress(host)) {
    AddDetail(details, "url", "the host is not a public address");
  }
}

bool WebhookEndpoint::Wants(std::string_view event_type) const {
  return std::find(event_types.begin(), event_types.end(), event_type) != event_types.end();
}

Result<EndpointFields> ParseCreateEndpoint(const boost::json::object& body,
                                           const UrlPolicy& policy) {
  EndpointFields fields;
  Details details;
  ParseFields(body, policy, fields, details);
  if (Member(body, "url") == nullptr) AddDetail(details, "url", "required");
  if (Member(body, "eventTypes") == nullptr) AddDetail(details, "eventTypes", "required");
  if (!details.empty()) return Invalid(details);
  return fields;
}

Result<EndpointFields> ParseUpdateEndpoint(const boost::json::object& body,
                                           const UrlPolicy& policy) {
  EndpointFields fields;
  Details details;
  ParseFields(body, policy, fields, details);
  if (details.empty() && !fields.url && !fields.event_types && !fields.description &&
      !fields.enabled) {
    AddDetail(details, "body", "name at least one of url, eventTypes, description, enabled");
  }
  if (!details.empty()) return Invalid(details);
  return fields;
}

std::string EndpointCreatedData(const WebhookEndpoint& endpoint) {
  return boost::json::serialize(event_codec::Write(WebhookEndpointCreatedData{
      endpoint.id, endpoint.organization_id, endpoint.url, endpoint.event_types,
      endpoint.description, endpoint.enabled, endpoint.created_at}));
}

std::optional<std::string> EndpointUpdatedData(const WebhookEndpoint& current,
                                               const EndpointFields& fields,
                                               std::string_view updated_at) {
  WebhookEndpointUpdatedData data;
  if (fields.url && *fields.url != current.url) data.url = fields.url;
  if (fields.event_types && *fields.event_types != current.event_types) {
    data.event_types = fields.event_types;
  }
  if (fields.description && *fields.description != current.description) {
    data.description = fields.description;
  }
  if (fields.enabled && *fields.enabled != current.enabled) data.enabled = fields.enabled;
  if (!data.url && !data.event_types && !data.description && !data.enabled) return std::nullopt;
  data.updated_at = updated_at;
  return boost::json::serialize(event_codec::Write(data));
}

namespace {

// One On per event of an endpoint's stream.
void On(WebhookEndpoint& endpoint, const WebhookEndpointCreatedData& data) {
  endpoint.id = data.endpoint_id;
  endpoint.organization_id = data.organization_id;
  endpoint.url = data.url;
  endpoint.event_types = data.event_types;
  endpoint.description = data.description;
  endpoint.enabled = data.enabled;
  endpoint.created_at = data.created_at;
  endpoint.updated_at = data.created_at;
}

void On(WebhookEndpoint& endpoint, const WebhookEndpointUpdatedData& data) {
  if (data.url) endpoint.url = *data.url;
  if (data.event_types) endpoint.event_types = *data.event_types;
  if (data.description) endpoint.description = *data.description;
  if (data.enabled) endpoint.enabled = *data.enabled;
  endpoint.updated_at = data.updated_at;
}

void On(WebhookEndpoint& endpoint, const WebhookEndpointSecretRotatedData& data) {
  endpoint.updated_at = data.rotated_at;
}

void On(WebhookEndpoint& endpoint, const WebhookEndpointDeletedData& /*data*/) {
  endpoint.deleted = true;
}

using EndpointEvents =
    boost::mp11::mp_list<WebhookEndpointCreatedData, WebhookEndpointUpdatedData,
                         WebhookEndpointSecretRotatedData, WebhookEndpointDeletedData>;

}  // namespace

Status ApplyEndpointEvent(WebhookEndpoint& endpoint, const eventstore::EventRecord& event) {
  const auto visited = event_codec::VisitText<EndpointEvents>(
      event.type, event.data, [&](const auto& data) { On(endpoint, data); });
  if (visited == event_codec::Visited::kUnreadable) {
    return Fail(ErrorCode::kCorruption,
                "webhook endpoint event " + event.event_id + " does not read as " + event.type);
  }
  if (event.type == kEndpointCreated) {
    // Only the service writes these events: an endpoint without its id or owner is corruption.
    if (endpoint.id.empty() || endpoint.organization_id.empty() || endpoint.url.empty()) {
      return Fail(ErrorCode::kCorruption,
                  "webhook endpoint event " + event.event_id + " names no endpoint or owner");
    }
    endpoint.created_position = event.position.value();
  }
  endpoint.version = event.version.value();
  return {};
}

Result<std::optional<WebhookEndpoint>> ReplayEndpoint(
    const std::vector<eventstore::EventRecord>& events) {
  if (events.empty()) return std::optional<WebhookEndpoint>();
  WebhookEndpoint endpoint;
  for (const auto& event : events) {
    if (auto applied = ApplyEndpointEvent(endpoint, event); !applied) {
      return std::unexpected(applied.error());
    }
  }
  return std::optional<WebhookEndpoint>(std::move(endpoint));
}

boost::json::object EndpointToJson(const WebhookEndpoint& endpoint) {
  return boost::json::object{
      {"id", endpoint.id},
      {"url", endpoint.url},
      {"eventTypes", TypesJson(endpoint.event_types)},
      {"description", endpoint.description},
      {"enabled", endpoint.enabled},
      {"createdAt", endpoint.created_at},
      {"updatedAt", endpoint.updated_at},
  };
}

}  // namespace esign::webhooks
