#include "webhooks/endpoint_directory.h"

#include <boost/json.hpp>

#include "domain/stream_kinds.h"

namespace esign::webhooks {
namespace {

constexpr std::string_view kRowPrefix = "e/";

std::string RowKey(std::string_view id) { return std::string(kRowPrefix) + std::string(id); }

}  // namespace

std::string EndpointRow(const WebhookEndpoint& endpoint) {
  boost::json::object row = EndpointToJson(endpoint);
  row["organizationId"] = endpoint.organization_id;
  row["createdPosition"] = endpoint.created_position;
  row["version"] = endpoint.version;
  return boost::json::serialize(row);
}

Result<WebhookEndpoint> ParseEndpointRow(std::string_view row) {
  boost::system::error_code ec;
  const boost::json::value value = boost::json::parse(row, ec);
  if (ec || !value.is_object()) return Fail(ErrorCode::kCorruption, "webhook endpoint row");
  try {
    const auto& o = value.as_object();
    WebhookEndpoint e;
    e.id = o.at("id").as_string();
    e.organization_id = o.at("organizationId").as_string();
    e.url = o.at("url").as_string();
    for (const auto& t : o.at("eventTypes").as_array()) e.event_types.emplace_back(t.as_string());
    e.description = o.at("description").as_string();
    e.enabled = o.at("enabled").as_bool();
    e.created_at = o.at("createdAt").as_string();
    e.updated_at = o.at("updatedAt").as_string();
    e.created_position = o.at("createdPosition").to_number<uint64_t>();
    e.version = o.at("version").to_number<uint64_t>();
    return e;
  } catch (const std::exception& ex) {
    return Fail(ErrorCode::kCorruption, std::string("webhook endpoint row: ") + ex.what());
  }
}

std::shared_ptr<const EndpointDirectory::Snapshot> EndpointDirectory::MakeSnapshot(Map by_id) {
  auto snapshot = std::make_shared<Snapshot>();
  for (const auto& [id, endpoint] : by_id) {
    snapshot->ids_of_organization[endpoint.organization_id].insert(id);
  }
  snapshot->by_id = std::move(by_id);
  return snapshot;
}

std::shared_ptr<const EndpointDirectory::Snapshot> EndpointDirectory::CommittedSnapshot() const {
  std::lock_guard lock(mutex_);
  return committed_;
}

Status EndpointDirectory::Apply(const eventstore::EventRecord& event,
                                projections::ViewBatch& batch) {
  const std::optional<std::string_view> id_in_stream =
      IdInStream(StreamKind::kWebhookEndpoint, event.stream_id);
  if (!id_in_stream) return {};
  WebhookEndpoint endpoint;
  const std::string id(*id_in_stream);
  if (auto it = pending_.find(id); it != pending_.end()) {
    endpoint = it->second;
  } else if (event.type != kEndpointCreated) {
    // The committed map holds every live endpoint, as the rows do: reading it needs no batch, so
    // a directory fed from elsewhere than the projector (endpoint_feed.h) applies events too.
    const auto committed = CommittedSnapshot();
    auto it = committed->by_id.find(id);
    if (it == committed->by_id.end()) return {};  // deleted already
    endpoint = it->second;
  }
  if (auto applied = ApplyEndpointEvent(endpoint, event); !applied) return applied;
  if (endpoint.deleted) {
    batch.Delete(RowKey(id));
  } else {
    batch.Put(RowKey(id), EndpointRow(endpoint));
  }
  pending_.insert_or_assign(id, std::move(endpoint));
  return {};
}

void EndpointDirectory::Committed() {
  if (pending_.empty()) return;
  Map next = CommittedSnapshot()->by_id;
  for (auto& [id, endpoint] : pending_) {
    if (endpoint.deleted) {
      next.erase(id);
    } else {
      next.insert_or_assign(id, std::move(endpoint));
    }
  }
  pending_.clear();
  auto snapshot = MakeSnapshot(std::move(next));
  {
    std::lock_guard lock(mutex_);
    committed_ = std::move(snapshot);
  }
  std::function<void()> on_change;
  {
    std::lock_guard lock(on_change_mutex_);
    on_change = on_change_;
  }
  if (on_change) on_change();  // outside the locks: listeners read the directory
}

Status EndpointDirectory::Load(const projections::ViewReader& rows) {
  Map loaded;
  Status status;
  Status scanned = rows.Scan(kRowPrefix, "", false, [&](std::string_view, std::string_view value) {
    auto endpoint = ParseEndpointRow(value);
    if (!endpoint) {
      status = std::unexpected(endpoint.error());
      return false;
    }
    loaded.insert_or_assign(endpoint->id, std::move(*endpoint));
    return true;
  });
  if (!scanned) return scanned;
  if (!status) return status;
  auto snapshot = MakeSnapshot(std::move(loaded));
  std::lock_guard lock(mutex_);
  committed_ = std::move(snapshot);
  return {};
}

std::vector<WebhookEndpoint> EndpointDirectory::List(std::string_view organization_id,
                                                     std::string_view after, size_t limit) const {
  const auto committed = CommittedSnapshot();
  std::vector<WebhookEndpoint> items;
  auto ids = committed->ids_of_organization.find(organization_id);
  if (ids == committed->ids_of_organization.end()) return items;
  for (auto it = after.empty() ? ids->second.begin() : ids->second.upper_bound(after);
       it != ids->second.end() && items.size() < limit; ++it) {
    items.push_back(committed->by_id.find(*it)->second);
  }
  return items;
}

std::vector<WebhookEndpoint> EndpointDirectory::OfOrganization(
    std::string_view organization_id) const {
  return List(organization_id, "", SIZE_MAX);
}

void EndpointDirectory::SetOnChange(std::function<void()> on_change) {
  std::lock_guard lock(on_change_mutex_);
  on_change_ = std::move(on_change);
}

std::optional<WebhookEndpoint> EndpointDirectory::Find(std::string_view endpoint_id) const {
  const auto committed = CommittedSnapshot();
  auto it = committed->by_id.find(endpoint_id);
  if (it == committed->by_id.end()) return std::nullopt;
  return it->second;
}

}  // namespace esign::webhooks
