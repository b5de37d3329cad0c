// BulkSendIndex: the bulk send jobs that have not ended (domain/bulk_send.h), so that the runner
// (commands/bulk_send_runner.h) finds them after a restart and new ones as they come. The jobs
// themselves are their streams; this index only lists them.
//
// Rows (under "bulk_sends/"):  a/<bulkSendId> -> its organization, from bulk_send.created to
//                              bulk_send.completed
// Thread safety: the look-ups may be called from any thread and see committed rows; Apply is the
// projector's.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "projections/projection.h"
#include "projections/view_store.h"

namespace esign::projections {

inline constexpr std::string_view kBulkSendIndexName = "bulk_sends";

class BulkSendIndex final : public Projection {
 public:
  // `changed`, when set, is called (on the projector's thread) after a job was created or ended.
  explicit BulkSendIndex(const ViewStore& views, std::function<void()> changed = nullptr)
      : views_(views), changed_(std::move(changed)) {}

  std::string_view Name() const override { return kBulkSendIndexName; }
  Status Apply(const eventstore::EventRecord& event, ViewBatch& batch) override;

  // The ids of the jobs that have not ended, in id order.
  Result<std::vector<std::string>> Running() const;
  // How many of them are the organization's.
  Result<size_t> RunningOf(std::string_view organization_id) const;

 private:
  // (id, organization) of every job that has not ended.
  Result<std::vector<std::pair<std::string, std::string>>> RunningWithOrganizations() const;

  const ViewStore& views_;
  std::function<void()> changed_;
};

}  // namespace esign::projections
