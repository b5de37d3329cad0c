// EndpointDirectory: every live webhook endpoint, built from the "webhook-*" streams, for the
// endpoint list and the dispatcher's routing. Rows (under "webhook_endpoints/"):
//   e/<endpointId> -> the endpoint's state as JSON
// and the whole directory in memory besides (endpoints are few), loaded in Load and published in
// Committed. Apply reads only the in-memory state, never the batch, so outside contractd the
// directory is fed from the endpoints topic (endpoint_feed.h) with a batch that keeps nothing.
// Thread safety: List, Find, OfOrganization and SetOnChange may be called from any thread and see
// what is committed; Apply, Committed and Load are the feeding thread's (the projector's).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "projections/projection.h"
#include "webhooks/endpoint.h"

namespace esign::webhooks {

class EndpointDirectory final : public projections::Projection {
 public:
  std::string_view Name() const override { return "webhook_endpoints"; }
  Status Apply(const eventstore::EventRecord& event, projections::ViewBatch& batch) override;
  void Committed() override;
  Status Load(const projections::ViewReader& rows) override;

  // The organization's endpoints with an id after `after` (empty: from the first), by id, at
  // most `limit`.
  std::vector<WebhookEndpoint> List(std::string_view organization_id, std::string_view after,
                                    size_t limit) const;
  std::optional<WebhookEndpoint> Find(std::string_view endpoint_id) const;
  // Every live endpoint of an organization.
  std::vector<WebhookEndpoint> OfOrganization(std::string_view organization_id) const;
  // Called on the feeding thread after a batch changed some endpoint (the dispatcher wakes its
  // lanes). Changes committed before the call are not reported.
  void SetOnChange(std::function<void()> on_change);

 private:
  using Map = std::map<std::string, WebhookEndpoint, std::less<>>;
  // What is committed, immutable once published, with each organization's endpoint ids (in id
  // order), so routing an event does not go through every organization's endpoints.
  struct Snapshot {
    Map by_id;
    std::map<std::string, std::set<std::string, std::less<>>, std::less<>> ids_of_organization;
  };
  static std::shared_ptr<const Snapshot> MakeSnapshot(Map by_id);
  std::shared_ptr<const Snapshot> CommittedSnapshot() const;

  mutable std::mutex mutex_;
  std::shared_ptr<const Snapshot> committed_ = MakeSnapshot({});  // guarded by mutex_
  Map pending_;  // the feeding thread's: changes of the batch being applied (deleted ones included)
  std::mutex on_change_mutex_;
  std::function<void()> on_change_;  // guarded by on_change_mutex_
};

// A batch that keeps nothing, for a directory that lives only in memory (a dispatcher's feed,
// tests): the directory's state is its memory, the rows are not needed.
class DiscardingBatch final : public projections::ViewBatch {
 public:
  using ViewBatch::Put;
  void Put(std::string_view /*key*/, std::string_view /*value*/) override {}
  void Delete(std::string_view /*key*/) override {}
  Result<std::optional<std::string>> Get(std::string_view /*key*/) const override {
    return std::optional<std::string>();
  }
};

// The row of an endpoint, and back (kCorruption when it is not one).
std::string EndpointRow(const WebhookEndpoint& endpoint);
Result<WebhookEndpoint> ParseEndpointRow(std::string_view row);

}  // namespace esign::webhooks
