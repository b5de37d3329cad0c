#include "projections/bulk_send_index.h"

#include <algorithm>

#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "projections/view_batch.h"

namespace esign::projections {
namespace {

using JobEvents = boost::mp11::mp_list<BulkSendCreatedData, BulkSendCompletedData>;

constexpr std::string_view kRunningPrefix = "a/";

std::string RunningKey(std::string_view bulk_send_id) {
  return std::string(kRunningPrefix) + std::string(bulk_send_id);
}

}  // namespace

Status BulkSendIndex::Apply(const eventstore::EventRecord& event, ViewBatch& batch) {
  const auto visited = event_codec::VisitText<JobEvents>(
      event.type, event.data,
      event_codec::Overloaded{
          [&](const BulkSendCreatedData& data) {
            batch.Put(RunningKey(data.bulk_send_id), data.organization_id);
          },
          [&](const BulkSendCompletedData& data) { batch.Delete(RunningKey(data.bulk_send_id)); }});
  if (visited == event_codec::Visited::kUnreadable) {
    return Fail(ErrorCode::kCorruption, "bulk send event " + event.event_id + " does not read");
  }
  if (visited == event_codec::Visited::kYes && changed_) changed_();
  return {};
}

Result<std::vector<std::pair<std::string, std::string>>> BulkSendIndex::RunningWithOrganizations()
    const {
  const std::unique_ptr<const RowReader> snapshot = views_.Snapshot();
  const PrefixedReader rows(*snapshot, kBulkSendIndexName);
  std::vector<std::pair<std::string, std::string>> jobs;
  auto scanned =
      rows.Scan(kRunningPrefix, "", false, [&](std::string_view key, std::string_view value) {
        jobs.emplace_back(key.substr(kRunningPrefix.size()), value);
        return true;
      });
  if (!scanned) return std::unexpected(scanned.error());
  return jobs;
}

Result<std::vector<std::string>> BulkSendIndex::Running() const {
  auto jobs = RunningWithOrganizations();
  if (!jobs) return std::unexpected(jobs.error());
  std::vector<std::string> ids;
  for (auto& [id, organization] : *jobs) ids.push_back(std::move(id));
  return ids;
}

Result<size_t> BulkSendIndex::RunningOf(std::string_view organization_id) const {
  auto jobs = RunningWithOrganizations();
  if (!jobs) return std::unexpected(jobs.error());
  return static_cast<size_t>(std::count_if(
      jobs->begin(), jobs->end(), [&](const auto& job) { return job.second == organization_id; }));
}

}  // namespace esign::projections
