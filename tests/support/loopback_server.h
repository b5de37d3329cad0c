// A test server run as a child process on loopback (a node script such as the SMTP server or the
// RFC 3161 authority): started with its stdout sent to the captured stderr, it announces itself
// with one line "listening PORT"; stopped with SIGTERM. And a port nothing listens on.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"

namespace esign::testing {

class LoopbackServer {
 public:
  // `argv`: the program and its arguments; `what` names it in a failure.
  LoopbackServer(const std::vector<std::string>& argv, const std::string& what) {
    std::vector<std::string> shell = {"/bin/sh", "-c", "exec \"$0\" \"$@\" >&2"};
    shell.insert(shell.end(), argv.begin(), argv.end());
    process_ = std::make_unique<ChildProcess>(shell);
    const std::optional<std::string> line =
        process_->WaitForLine("listening ", std::chrono::seconds(30));
    if (!line) {
      ADD_FAILURE() << what << " did not start: " << process_->output();
      return;
    }
    port_ = std::stoi(line->substr(line->find("listening ") + 10));
  }
  ~LoopbackServer() {
    process_->Signal(SIGTERM);
    process_->Wait(std::chrono::seconds(10));
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  int port() const { return port_; }

 private:
  std::unique_ptr<ChildProcess> process_;
  int port_ = 0;
};

// A port nothing listens on: one the kernel chose, closed again.
inline int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

}  // namespace esign::testing
