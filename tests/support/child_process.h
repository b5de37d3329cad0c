// Runs an executable as a child process for end-to-end tests: its stderr is captured line by line
// so a test can wait for what it prints, and it can be signalled and reaped.
// A thread of its own keeps reading stderr, so a child that logs a lot (an access-log line per
// request) never blocks on a full pipe while the test is not looking.
//
// No orphans: every child started here (SpawnChild, so ChildProcess and the fixtures' RunProgram
// too) is SIGKILLed by the kernel when the test dies, whatever kills it (a timeout, a crash, a
// SIGKILL), through PR_SET_PDEATHSIG. The kernel sends it when the *thread* that started the child
// ends, not the process: start children from the test's main thread or from a thread that outlives
// them, never from a short-lived worker thread, or they are killed with it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

namespace esign::testing {

// Starts `argv[0]` with `argv` in a child that dies with the calling thread (above), its stdout and
// stderr sent to `stdout_fd` and `stderr_fd` (-1: inherited) and no other descriptor of this
// process open. The child's pid, or -1 when fork failed. The caller reaps it.
pid_t SpawnChild(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd);

class ChildProcess {
 public:
  // Starts `argv[0]` with the given arguments; stdout is inherited, stderr captured.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();  // SIGKILLs a child still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Waits until a line containing `needle` has arrived after the lines earlier calls looked at;
  // that line, or nothing on timeout or end of output.
  std::optional<std::string> WaitForLine(const std::string& needle,
                                         std::chrono::milliseconds timeout);
  // Everything read from stderr so far.
  std::string output() const;
  // The same (kept for its callers: reading is continuous now).
  std::string ReadOutput() const { return output(); }

  void Signal(int signal);
  // Waits for exit; the exit status (as from WEXITSTATUS), or -signal when killed, or nothing
  // on timeout.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  pid_t pid() const { return pid_; }

 private:
  void ReadUntilEnd(int fd, const std::stop_token& stop);

  pid_t pid_ = -1;
  bool exited_ = false;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::string output_;  // guarded by mutex_
  bool ended_ = false;  // guarded by mutex_: stderr reached its end
  size_t scanned_ = 0;  // guarded by mutex_: where the first line not yet looked at begins
  std::jthread reader_;
};

}  // namespace esign::testing
