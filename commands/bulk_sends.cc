#include "commands/bulk_sends.h"

#include "base/sha256.h"
#include "base/time_text.h"
#include "commands/stream_visit.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/stream_kinds.h"

namespace esign::commands {
namespace {

std::unexpected<Error> NotFound(std::string_view id) {
  return Fail(ErrorCode::kBulkSendNotFound, "bulk send " + std::string(id) + " not found");
}

// "bsd_" and 26 characters: random, or derived from the organization and the Idempotency-Key.
std::string JobId(IdGenerator& ids, std::string_view organization_id,
                  const std::optional<std::string>& idempotency_key) {
  if (!idempotency_key) return ids.Next("bsd_");
  return "bsd_" + Sha256Hex(std::string(organization_id) + "\n" + *idempotency_key).substr(0, 26);
}

}  // namespace

Result<BulkSend> BulkSendCommands::Create(const esign::Actor& actor, const BulkSendRequest& request,
                                          const std::optional<std::string>& idempotency_key,
                                          std::string_view request_sha256,
                                          const eventstore::Actor& event_actor) {
  for (std::string_view permission : {"contracts:create", "contracts:send"}) {
    if (!actor.Has(permission)) {
      return Fail(ErrorCode::kPermissionDenied,
                  "a bulk send creates and sends contracts: it needs " + std::string(permission),
                  "permission", std::string(permission));
    }
  }
  const std::string id = JobId(deps_.ids, actor.organization_id, idempotency_key);
  if (idempotency_key) {
    auto earlier = ReadStream(id);
    if (earlier) {
      if (earlier->request_sha256 != request_sha256) {
        return Fail(ErrorCode::kIdempotencyKeyReused,
                    "this Idempotency-Key was used for another bulk send", "Idempotency-Key",
                    "used for another request");
      }
      return earlier;
    }
    if (earlier.error().code != ErrorCode::kBulkSendNotFound) return earlier;
  }
  auto tmpl = deps_.templates ? deps_.templates(request.template_id) : nullptr;
  if (tmpl == nullptr || !tmpl->VisibleTo(actor.organization_id)) {
    return Fail(ErrorCode::kTemplateNotFound, "template " + request.template_id + " not found",
                "templateId", "unknown template");
  }
  if (tmpl->archived) {
    return Fail(ErrorCode::kTemplateArchived,
                "template " + request.template_id + " is archived: no new contract starts from it",
                "templateId", "archived");
  }
  if (tmpl->PublishedVersion() == nullptr) {
    return Fail(ErrorCode::kTemplateVersionNotFound, "the template has no published version",
                "templateId", "no published version");
  }
  auto rows_sha256 = deps_.store.blobs().Put(boost::json::serialize(request.rows));
  if (!rows_sha256) return std::unexpected(rows_sha256.error());
  BulkSendCreatedData created{
      .bulk_send_id = id,
      .organization_id = actor.organization_id,
      .client_id = actor.client_id,
      .permissions = {actor.permissions.begin(), actor.permissions.end()},
      .request_sha256 = std::string(request_sha256),
      .template_id = request.template_id,
      // Fixed now, so that a row run again after a restart asks exactly what it asked before,
      // even if the template was renamed since (its Idempotency-Key is bound to the request).
      .title = request.title.empty() ? tmpl->name : request.title,
      .signing_settings = request.signing_settings,
      .notifications = request.notifications,
      .row_count = static_cast<int64_t>(request.rows.size()),
      .rows_sha256 = *rows_sha256,
      .created_at = FormatTimestamp(deps_.clock.NowMicros())};
  eventstore::NewEvent event;
  event.type = std::string(event_type::kBulkSendCreated);
  event.data = boost::json::serialize(event_codec::WriteData(created));
  event.actor = event_actor;
  event.event_id = idempotency_key ? "evt_" + Sha256Hex("bulk-created\n" + id).substr(0, 32)
                                   : deps_.ids.Next("evt_");
  Result<eventstore::AppendResult> appended = [&]() -> Result<eventstore::AppendResult> {
    std::lock_guard lock(create_mutex_);
    if (deps_.running_of) {
      auto running = deps_.running_of(actor.organization_id);
      if (!running) return std::unexpected(running.error());
      if (*running >= kMaxRunningBulkSends) {
        return Fail(ErrorCode::kRateLimited,
                    "the organization has " + std::to_string(kMaxRunningBulkSends) +
                        " bulk sends running already; send this one when one of them ended");
      }
    }
    return deps_.store.Append(StreamIdOf(StreamKind::kBulkSend, id),
                              eventstore::ExpectedVersion::NoStream(), {std::move(event)});
  }();
  if (!appended) {
    // The same key at the same moment: the other request made the job.
    if (appended.error().code == ErrorCode::kStreamVersionConflict && idempotency_key) {
      return Create(actor, request, idempotency_key, request_sha256, event_actor);
    }
    return std::unexpected(appended.error());
  }
  return ReadStream(id);
}

Result<BulkSend> BulkSendCommands::ReadStream(std::string_view bulk_send_id) const {
  const std::string stream = StreamIdOf(StreamKind::kBulkSend, bulk_send_id);
  auto version = deps_.store.CurrentVersion(stream);
  if (!version) return std::unexpected(version.error());
  if (version->value() == 0) return NotFound(bulk_send_id);
  BulkSend job;
  auto visited =
      VisitStream(deps_.store, stream, version->value(),
                  [&](const eventstore::EventRecord& record, const boost::json::object& data) {
                    ApplyBulkSendEvent(job, record.type, data);
                  });
  if (!visited) return std::unexpected(visited.error());
  return job;
}

Result<uint64_t> BulkSendCommands::VersionOf(std::string_view bulk_send_id) const {
  auto version = deps_.store.CurrentVersion(StreamIdOf(StreamKind::kBulkSend, bulk_send_id));
  if (!version) return std::unexpected(version.error());
  return version->value();
}

Result<BulkSend> BulkSendCommands::Read(std::string_view organization_id,
                                        std::string_view bulk_send_id) const {
  if (!bulk_send_id.starts_with("bsd_") || bulk_send_id.size() > 64) return NotFound(bulk_send_id);
  auto job = ReadStream(bulk_send_id);
  if (!job) return job;
  if (job->organization_id != organization_id) return NotFound(bulk_send_id);
  return job;
}

Result<BulkSend> BulkSendCommands::Cancel(const esign::Actor& actor, std::string_view bulk_send_id,
                                          const eventstore::Actor& event_actor) {
  if (!actor.Has("contracts:send")) {
    return Fail(ErrorCode::kPermissionDenied, "cancelling a bulk send needs contracts:send",
                "permission", "contracts:send");
  }
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto job = Read(actor.organization_id, bulk_send_id);
    if (!job) return job;
    if (job->state != BulkSendState::kRunning) return job;
    BulkSendCancelledData cancelled{.bulk_send_id = job->id,
                                    .organization_id = job->organization_id,
                                    .cancelled_at = FormatTimestamp(deps_.clock.NowMicros())};
    auto appended = AppendToJob(*job, event_type::kBulkSendCancelled,
                                event_codec::WriteData(cancelled), event_actor);
    if (appended) return Read(actor.organization_id, bulk_send_id);
    // The runner recorded progress in between: decide again on the job as it is now.
    if (appended.error().code != ErrorCode::kStreamVersionConflict) {
      return std::unexpected(appended.error());
    }
  }
  return Fail(ErrorCode::kStreamVersionConflict, "the bulk send kept changing; retry");
}

Result<boost::json::array> BulkSendCommands::Rows(const BulkSend& job) const {
  auto text = deps_.store.blobs().Get(job.rows_sha256);
  if (!text) return std::unexpected(text.error());
  boost::system::error_code ec;
  boost::json::value rows = boost::json::parse(*text, ec);
  if (ec || !rows.is_array() || static_cast<int64_t>(rows.get_array().size()) != job.row_count) {
    return Fail(ErrorCode::kCorruption, "the rows of bulk send " + job.id + " do not read");
  }
  return std::move(rows.get_array());
}

Status BulkSendCommands::RecordProgress(const BulkSend& job,
                                        const std::vector<BulkRowOutcome>& outcomes) {
  BulkSendProgressedData progressed{.bulk_send_id = job.id,
                                    .organization_id = job.organization_id,
                                    .processed = job.processed,
                                    .sent = job.sent,
                                    .failed = job.failed,
                                    .rows = {},
                                    .progressed_at = FormatTimestamp(deps_.clock.NowMicros())};
  for (const BulkRowOutcome& outcome : outcomes) {
    ++(outcome.contract_id.empty() ? progressed.failed : progressed.sent);
    progressed.rows.push_back(BulkRowOutcomeJson(outcome));
  }
  progressed.processed += static_cast<int64_t>(outcomes.size());
  return AppendToJob(job, event_type::kBulkSendProgressed, event_codec::WriteData(progressed),
                     eventstore::Actor{});
}

Status BulkSendCommands::RecordCompleted(const BulkSend& job) {
  const bool cancelled = job.state != BulkSendState::kRunning;
  BulkSendCompletedData completed{.bulk_send_id = job.id,
                                  .organization_id = job.organization_id,
                                  .state = cancelled ? "cancelled" : "completed",
                                  .row_count = job.row_count,
                                  .sent = job.sent,
                                  .failed = job.failed,
                                  .not_sent = cancelled ? job.row_count - job.processed : 0,
                                  .completed_at = FormatTimestamp(deps_.clock.NowMicros())};
  return AppendToJob(job, event_type::kBulkSendCompleted, event_codec::WriteData(completed),
                     eventstore::Actor{});
}

Status BulkSendCommands::AppendToJob(const BulkSend& job, std::string_view type,
                                     const boost::json::object& data,
                                     const eventstore::Actor& actor) {
  eventstore::NewEvent event;
  event.type = std::string(type);
  event.data = boost::json::serialize(data);
  event.actor = actor;
  event.event_id = deps_.ids.Next("evt_");
  auto appended = deps_.store.Append(
      StreamIdOf(StreamKind::kBulkSend, job.id),
      eventstore::ExpectedVersion::Exactly(StreamVersion(job.version)), {std::move(event)});
  if (!appended) return Fail(appended.error());
  return {};
}

}  // namespace esign::commands
