// The runner of bulk sends (DESIGN 23): the one writer that turns a job's rows into contracts.
// It takes the jobs that have not ended from the index (projections/bulk_send_index.h), a chunk
// of up to kBulkProgressEvery rows of each in turn, and creates and sends each row's contract
// through the contract command handler, as the job's client, with the Idempotency-Key
// "bulk:<job>:<row>": a row done before a crash but not yet recorded is answered from its
// reservation when the chunk runs again, never created twice. Each chunk ends with one
// bulk_send.progressed; a row refused by the contract's rules is recorded failed and the job goes
// on; a fault of the service (storage, a conflict) stops the chunk, to be tried again. A cancel is
// seen before every row.
//
// Rows are paced at `rows_per_second` across all jobs (--bulk-rate), leaving the rest of the
// service's capacity to the other requests.
//
// Thread safety: Start, Stop and Wake from any thread; the commands, handler and index must
// outlive the runner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "commands/bulk_sends.h"
#include "commands/contract_commands.h"
#include "projections/bulk_send_index.h"

namespace esign::commands {

// The CreateContract of a POST /contracts body (http/contract_requests.h), given by the caller so
// that the commands do not depend on the HTTP layer.
using ContractRequestReader = std::function<CreateContract(const boost::json::object& body)>;

struct BulkSendRunnerOptions {
  double rows_per_second = 50;
  // How often the index is looked at without a Wake, and how long a failed chunk waits.
  // (The index's own wake comes as the projector applies a job, a moment before it commits it.)
  std::chrono::milliseconds poll{250};
  std::function<void(const std::string&)> log;
};

class BulkSendRunner {
 public:
  BulkSendRunner(BulkSendCommands& jobs, ContractCommandHandler& contracts,
                 const projections::BulkSendIndex& index, ContractRequestReader read_request,
                 BulkSendRunnerOptions options = {});
  ~BulkSendRunner();  // stops

  BulkSendRunner(const BulkSendRunner&) = delete;
  BulkSendRunner& operator=(const BulkSendRunner&) = delete;

  void Start();
  // Ends the thread after the row being created. Idempotent.
  void Stop();
  // Look at the index again now (a job was created or cancelled).
  void Wake();

 private:
  void Run(const std::stop_token& stop);
  // One chunk of the job, or its completion; false when the job needs nothing more now.
  Result<bool> Advance(const std::string& bulk_send_id, const std::stop_token& stop);
  // Waits until the next row may start, or Stop; false when stopped.
  bool Pace(const std::stop_token& stop);
  // Waits for a Wake, `timeout` or Stop.
  void WaitForWake(const std::stop_token& stop, std::chrono::milliseconds timeout);

  BulkSendCommands& jobs_;
  ContractCommandHandler& contracts_;
  const projections::BulkSendIndex& index_;
  ContractRequestReader read_request_;
  const BulkSendRunnerOptions options_;

  // The rows of the jobs being run, read once from their blobs. The runner's thread only.
  std::map<std::string, boost::json::array> rows_;
  std::chrono::steady_clock::time_point next_row_;

  std::mutex wake_mutex_;
  std::condition_variable_any wake_;
  bool woken_ = false;  // guarded by wake_mutex_
  std::jthread thread_;
};

}  // namespace esign::commands
