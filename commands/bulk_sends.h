// Bulk send jobs in the log (domain/bulk_send.h): created by the integrator (the rows stored as a
// blob, the job as bulk_send.created), read back by folding the job's stream, cancelled, and
// advanced by the runner (bulk_send_runner.h), which is the only writer of progress and
// completion. Appends name the stream version they were decided on, so a cancel and the runner's
// progress are ordered by the store and neither is lost.
// Thread safety: every method may be called from any thread.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "domain/bulk_send.h"
#include "domain/clock.h"
#include "domain/contract.h"
#include "domain/id_generator.h"
#include "eventstore/event_store.h"
#include "projections/template_catalog.h"

namespace esign::commands {

// Jobs of one organization that may run at once: each holds up to 16 MiB of rows in the store.
inline constexpr size_t kMaxRunningBulkSends = 5;

struct BulkSendDeps {
  eventstore::EventStore& store;
  projections::TemplateLookup templates;
  const Clock& clock;
  IdGenerator& ids;
  // How many jobs of the organization have not ended (projections/bulk_send_index.h), counting
  // every job appended before the call; without it, no limit.
  std::function<Result<size_t>(std::string_view organization_id)> running_of;
};

class BulkSendCommands {
 public:
  explicit BulkSendCommands(BulkSendDeps deps) : deps_(std::move(deps)) {}

  // A new job (needs contracts:create and contracts:send, a template the organization may start
  // contracts from, and fewer than kMaxRunningBulkSends of the organization's jobs running:
  // kRateLimited otherwise). With an Idempotency-Key the job's id derives from the organization and
  // the key: the same request again answers the same job, another one kIdempotencyKeyReused.
  Result<BulkSend> Create(const esign::Actor& actor, const BulkSendRequest& request,
                          const std::optional<std::string>& idempotency_key,
                          std::string_view request_sha256, const eventstore::Actor& event_actor);

  // The job as its events tell it; kBulkSendNotFound for an unknown one or another
  // organization's.
  Result<BulkSend> Read(std::string_view organization_id, std::string_view bulk_send_id) const;

  // Appends bulk_send.cancelled to a running job (a job that ended or is cancelling already is
  // answered as it is).
  Result<BulkSend> Cancel(const esign::Actor& actor, std::string_view bulk_send_id,
                          const eventstore::Actor& event_actor);

  // The job's rows, from its blob.
  Result<boost::json::array> Rows(const BulkSend& job) const;

  // The runner's appends, at the version `job` was read at (kStreamVersionConflict otherwise).
  Status RecordProgress(const BulkSend& job, const std::vector<BulkRowOutcome>& outcomes);
  Status RecordCompleted(const BulkSend& job);

  // The job by id, whatever its organization (the runner's read); kBulkSendNotFound when none.
  Result<BulkSend> ReadStream(std::string_view bulk_send_id) const;
  // The version of the job's stream: whether anything happened to it since it was read.
  Result<uint64_t> VersionOf(std::string_view bulk_send_id) const;

 private:
  Status AppendToJob(const BulkSend& job, std::string_view type, const boost::json::object& data,
                     const eventstore::Actor& actor);

  BulkSendDeps deps_;
  // Held from counting an organization's running jobs to appending the new one, so that requests
  // at the same moment cannot together pass the limit.
  std::mutex create_mutex_;
};

}  // namespace esign::commands
