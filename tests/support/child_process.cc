#include "tests/support/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace esign::testing {

pid_t SpawnChild(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd) {
  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died before prctl: the child was adopted already and no signal comes.
  if (getppid() != parent) _exit(127);
  if (stdout_fd >= 0) dup2(stdout_fd, STDOUT_FILENO);
  if (stderr_fd >= 0) dup2(stderr_fd, STDERR_FILENO);
  // Other children's pipes stay out: a child holding one would keep that pipe from ending.
  close_range(3, ~0U, 0);
  execv(args[0], args.data());
  _exit(127);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  pid_ = SpawnChild(argv, -1, fds[1]);
  close(fds[1]);
  reader_ =
      std::jthread([this, fd = fds[0]](const std::stop_token& stop) { ReadUntilEnd(fd, stop); });
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  // The reader ends at end of output; a grandchild that kept stderr open ends it at its poll.
  reader_.request_stop();
}

void ChildProcess::ReadUntilEnd(int fd, const std::stop_token& stop) {
  char buf[4096];
  while (!stop.stop_requested()) {
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, 100) == 0) continue;
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    std::lock_guard lock(mutex_);
    output_.append(buf, static_cast<size_t>(n));
    arrived_.notify_all();
  }
  close(fd);
  std::lock_guard lock(mutex_);
  ended_ = true;
  arrived_.notify_all();
}

std::optional<std::string> ChildProcess::WaitForLine(const std::string& needle,
                                                     std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock lock(mutex_);
  for (;;) {
    for (size_t end; (end = output_.find('\n', scanned_)) != std::string::npos;) {
      std::string line = output_.substr(scanned_, end - scanned_);
      scanned_ = end + 1;
      if (line.find(needle) != std::string::npos) return line;
    }
    if (ended_) return std::nullopt;
    if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) return std::nullopt;
  }
}

std::string ChildProcess::output() const {
  std::lock_guard lock(mutex_);
  return output_;
}

void ChildProcess::Signal(int signal) {
  if (pid_ > 0 && !exited_) kill(pid_, signal);
}

std::optional<int> ChildProcess::Wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      // What the child wrote last is read before output() is used.
      std::unique_lock lock(mutex_);
      arrived_.wait_for(lock, std::chrono::seconds(2), [this] { return ended_; });
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return -WTERMSIG(status);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

}  // namespace esign::testing
