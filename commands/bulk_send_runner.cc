#include "commands/bulk_send_runner.h"

#include "base/sha256.h"
#include "base/thread_name.h"
#include "domain/stream_kinds.h"

namespace esign::commands {
namespace {

// Faults of the service rather than of the row: the chunk stops and runs again later.
bool IsTransient(ErrorCode code) {
  switch (code) {
    case ErrorCode::kStorage:
    case ErrorCode::kStorageUnavailable:
    case ErrorCode::kUnavailable:
    case ErrorCode::kInternal:
    case ErrorCode::kCorruption:
    case ErrorCode::kStreamVersionConflict:
      return true;
    default:
      return false;
  }
}

}  // namespace

BulkSendRunner::BulkSendRunner(BulkSendCommands& jobs, ContractCommandHandler& contracts,
                               const projections::BulkSendIndex& index,
                               ContractRequestReader read_request, BulkSendRunnerOptions options)
    : jobs_(jobs),
      contracts_(contracts),
      index_(index),
      read_request_(std::move(read_request)),
      options_(std::move(options)) {}

BulkSendRunner::~BulkSendRunner() { Stop(); }

void BulkSendRunner::Start() {
  next_row_ = std::chrono::steady_clock::now();
  thread_ = std::jthread([this](const std::stop_token& stop) {
    NameThisThread("esign-bulk-send");
    Run(stop);
  });
}

void BulkSendRunner::Stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  wake_.notify_all();
  thread_.join();
}

void BulkSendRunner::Wake() {
  {
    std::lock_guard lock(wake_mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

void BulkSendRunner::WaitForWake(const std::stop_token& stop, std::chrono::milliseconds timeout) {
  std::unique_lock lock(wake_mutex_);
  wake_.wait_for(lock, stop, timeout, [this] { return woken_; });
  woken_ = false;
}

bool BulkSendRunner::Pace(const std::stop_token& stop) {
  const auto interval = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(1.0 / std::max(options_.rows_per_second, 0.001)));
  const auto now = std::chrono::steady_clock::now();
  // A runner that was idle does not make up for the time: no burst after a pause.
  if (next_row_ < now) next_row_ = now;
  {
    std::unique_lock lock(wake_mutex_);
    wake_.wait_until(lock, stop, next_row_, [] { return false; });
  }
  next_row_ += interval;
  return !stop.stop_requested();
}

void BulkSendRunner::Run(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    auto running = index_.Running();
    bool busy = false;
    if (!running) {
      if (options_.log)
        options_.log("bulk sends: the index does not read: " + running.error().message);
    } else {
      // Finished jobs leave the cache of rows.
      std::erase_if(rows_, [&](const auto& entry) {
        return std::find(running->begin(), running->end(), entry.first) == running->end();
      });
      for (const std::string& id : *running) {
        if (stop.stop_requested()) return;
        auto advanced = Advance(id, stop);
        if (!advanced) {
          if (options_.log) {
            options_.log("bulk send " + id + ": " + advanced.error().message + "; retrying");
          }
          continue;
        }
        busy = busy || *advanced;
      }
    }
    if (!busy) WaitForWake(stop, options_.poll);
  }
}

Result<bool> BulkSendRunner::Advance(const std::string& bulk_send_id, const std::stop_token& stop) {
  auto job = jobs_.ReadStream(bulk_send_id);
  if (!job) return std::unexpected(job.error());
  if (job->state == BulkSendState::kCompleted || job->state == BulkSendState::kCancelled) {
    return false;  // the index has not caught up with its completion yet
  }
  if (job->state == BulkSendState::kCancelling || job->processed >= job->row_count) {
    if (auto completed = jobs_.RecordCompleted(*job); !completed) {
      return std::unexpected(completed.error());
    }
    rows_.erase(bulk_send_id);
    return false;
  }
  auto cached = rows_.find(bulk_send_id);
  if (cached == rows_.end()) {
    // The rows of two jobs at most stay in memory; others are read again on their turn.
    if (rows_.size() >= 2) rows_.clear();
    auto rows = jobs_.Rows(*job);
    if (!rows) return std::unexpected(rows.error());
    cached = rows_.emplace(bulk_send_id, std::move(*rows)).first;
  }
  const boost::json::array& rows = cached->second;
  const esign::Actor actor{
      job->client_id, job->organization_id, {job->permissions.begin(), job->permissions.end()}};
  const std::string stream = StreamIdOf(StreamKind::kBulkSend, bulk_send_id);

  std::vector<BulkRowOutcome> outcomes;
  Status fault;
  const int64_t end = std::min(job->row_count, job->processed + kBulkProgressEvery);
  for (int64_t row = job->processed; row < end; ++row) {
    if (!Pace(stop)) break;
    // A cancel (the only other writer) stops the rows not yet sent.
    auto version = jobs_.VersionOf(bulk_send_id);
    if (!version) {
      fault = Fail(version.error());
      break;
    }
    if (*version != job->version) break;
    const boost::json::object& fields = rows[static_cast<size_t>(row)].as_object();
    // The job's title (the template's name when none was given) was fixed when it was created.
    const boost::json::object body = ContractRequestOfRow(job->request, fields, job->request.title);
    CreateContract command = read_request_(body);
    command.bulk_send_id = bulk_send_id;
    CommandMeta meta;
    meta.actor = eventstore::Actor{.client_id = job->client_id,
                                   .organization_id = job->organization_id,
                                   .request_id = BulkRowIdempotencyKey(bulk_send_id, row)};
    meta.idempotency_key = BulkRowIdempotencyKey(bulk_send_id, row);
    meta.request_sha256 = Sha256Hex(boost::json::serialize(body));
    auto created = contracts_.Create(actor, std::move(command), meta);
    if (!created && IsTransient(created.error().code)) {
      fault = Fail(created.error());
      break;
    }
    outcomes.push_back(created ? BulkRowOutcome{.row = row, .contract_id = created->state.id}
                               : BulkRowOutcome{.row = row, .error = created.error()});
  }
  // The rows done are recorded even when a cancel came in meanwhile: they were sent.
  for (int attempt = 0; !outcomes.empty(); ++attempt) {
    auto recorded = jobs_.RecordProgress(*job, outcomes);
    if (recorded) break;
    if (recorded.error().code != ErrorCode::kStreamVersionConflict || attempt == 5) {
      return std::unexpected(recorded.error());
    }
    job = jobs_.ReadStream(bulk_send_id);
    if (!job) return std::unexpected(job.error());
  }
  if (!fault) return std::unexpected(fault.error());
  return true;
}

}  // namespace esign::commands
