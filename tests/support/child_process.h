// Runs an executable as a child process for end-to-end tests: its stderr is captured line by line
// so a test can wait for what it prints, and it can be signalled and reaped.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace esign::testing {

class ChildProcess {
 public:
  // Starts `argv[0]` with the given arguments; stdout is inherited, stderr captured.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();  // SIGKILLs a child still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stderr until a line containing `needle` arrives; that line, or nothing on timeout/EOF.
  std::optional<std::string> WaitForLine(const std::string& needle,
                                         std::chrono::milliseconds timeout);
  // Everything read from stderr so far.
  const std::string& output() const { return output_; }
  // Reads what stderr holds now, without waiting; everything read so far.
  const std::string& ReadOutput();

  void Signal(int signal);
  // Waits for exit; the exit status (as from WEXITSTATUS), or -signal when killed, or nothing
  // on timeout.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int stderr_fd_ = -1;
  std::string output_;
  size_t scanned_ = 0;
  bool exited_ = false;
};

}  // namespace esign::testing
