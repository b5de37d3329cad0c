// The sweep that deletes uploads no contract named within their retention (DESIGN section 20).
// The due uploads are a projection of the log (projections/document_index.h), so the timer is
// durable: uploads that expired while the service was down go at the first sweep. The thread
// sleeps until the earliest expiry (at most max_sleep, so a clock set forward is noticed), and
// Wake makes it look again at once (a clock moved by an operator). A failed sweep is logged and
// tried again after retry_after.
// Thread safety: Start, Stop and Wake may be called from any thread; the commands must outlive
// the sweep.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "commands/document_commands.h"

namespace esign::commands {

struct DocumentExpiryOptions {
  std::chrono::milliseconds retry_after{5000};
  std::chrono::milliseconds max_sleep{std::chrono::minutes(5)};
  std::function<void(const std::string&)> log;  // may be empty
};

class DocumentExpiry {
 public:
  DocumentExpiry(DocumentCommands& documents, const Clock& clock,
                 DocumentExpiryOptions options = {});
  ~DocumentExpiry();  // stops

  DocumentExpiry(const DocumentExpiry&) = delete;
  DocumentExpiry& operator=(const DocumentExpiry&) = delete;

  void Start();
  void Stop();
  void Wake();

 private:
  void Run();
  // How long to sleep after a sweep.
  std::chrono::milliseconds NextSleep();

  DocumentCommands& documents_;
  const Clock& clock_;
  const DocumentExpiryOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // guarded by mutex_
  bool woken_ = false;     // guarded by mutex_
  std::thread thread_;
};

}  // namespace esign::commands
