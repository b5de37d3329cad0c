// smtp_server.mjs (tests/mail: the npm smtp-server, with mailparser reading back what arrived) as
// a child process on loopback, for the tests of the transport and of contractd's outbox. Needs
// NODE_EXECUTABLE and SMTP_SERVER_SCRIPT: tests/support/build_paths.h.
#pragma once
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tests/mail/mail_test_support.h"
#include "tests/support/eventually.h"
#include "tests/support/loopback_server.h"
#include "tests/support/temp_dir.h"

namespace esign::mail::testing {

using esign::testing::ChildProcess;
using esign::testing::Eventually;
using esign::testing::TempDir;

// smtp_server.mjs with the given flags, saving into a directory of its own; stopped by SIGTERM.
class TestSmtpServer {
 public:
  explicit TestSmtpServer(const std::vector<std::string>& flags)
      : server_(Argv(flags), "the SMTP server") {}

  std::string Url(std::string_view scheme = "smtp") const {
    return std::string(scheme) + "://127.0.0.1:" + std::to_string(server_.port());
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
  std::vector<std::string> Argv(const std::vector<std::string>& flags) const {
    std::vector<std::string> argv = {NODE_EXECUTABLE, SMTP_SERVER_SCRIPT, "--out", dir_.path()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return argv;
  }

  TempDir dir_;  // before server_: the server saves there
  esign::testing::LoopbackServer server_;
};

using esign::testing::FreePort;

}  // namespace esign::mail::testing
