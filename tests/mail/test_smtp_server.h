// smtp_server.mjs (tests/mail: the npm smtp-server, with mailparser reading back what arrived) as
// a child process on loopback, for the tests of the transport and of contractd's outbox. Needs
// NODE_EXECUTABLE and SMTP_SERVER_SCRIPT defined by the test target.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/mail/mail_test_support.h"
#include "tests/support/child_process.h"
#include "tests/support/eventually.h"
#include "tests/support/temp_dir.h"

namespace esign::mail::testing {

using esign::testing::ChildProcess;
using esign::testing::Eventually;
using esign::testing::TempDir;

// smtp_server.mjs with the given flags, saving into a directory of its own; stopped by SIGTERM.
class TestSmtpServer {
 public:
  explicit TestSmtpServer(const std::vector<std::string>& flags) {
    // The server says "listening PORT" on stdout; the child's stderr is what a test can read.
    std::vector<std::string> argv = {
        "/bin/sh", "-c",       "exec \"$0\" \"$@\" >&2", NODE_EXECUTABLE, SMTP_SERVER_SCRIPT,
        "--out",   dir_.path()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    process_ = std::make_unique<ChildProcess>(argv);
    const std::optional<std::string> line =
        process_->WaitForLine("listening ", std::chrono::seconds(30));
    if (!line) {
      ADD_FAILURE() << "the SMTP server did not start: " << process_->output();
      return;
    }
    port_ = std::stoi(line->substr(line->find("listening ") + 10));
  }
  ~TestSmtpServer() {
    process_->Signal(SIGTERM);
    process_->Wait(std::chrono::seconds(10));
  }

  std::string Url(std::string_view scheme = "smtp") const {
    return std::string(scheme) + "://127.0.0.1:" + std::to_string(port_);
  }
  // Message n (from 1) as mailparser read it.
  boost::json::object Message(int n) const {
    const std::string path = dir_.path() + "/" + std::to_string(n) + ".json";
    if (!Eventually([&] { return std::filesystem::exists(path); })) {
      ADD_FAILURE() << "no message " << n;
      return {};
    }
    return boost::json::parse(ReadFile(path)).as_object();
  }
  std::string Raw(int n) const { return ReadFile(dir_.path() + "/" + std::to_string(n) + ".eml"); }
  size_t Count() const {
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
      count += entry.path().extension() == ".json" ? 1 : 0;
    }
    return count;
  }

 private:
  TempDir dir_;
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

}  // namespace esign::mail::testing
