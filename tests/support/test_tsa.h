// tsa_server.mjs (tests/support: a real RFC 3161 authority answering with `openssl ts -reply`) as
// a child process on loopback, for the tests of timestamps. NODE_EXECUTABLE, TSA_SERVER_SCRIPT
// and OPENSSL_EXECUTABLE: tests/support/build_paths.h.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "tests/support/loopback_server.h"
#include "tests/support/shell.h"
#include "tests/support/temp_dir.h"

namespace esign::testing {

class TestTsa {
 public:
  // mode: "ok", "garbage", "reject" or "slow" (see tsa_server.mjs).
  explicit TestTsa(std::string_view mode = "ok")
      : server_({NODE_EXECUTABLE, TSA_SERVER_SCRIPT, "--dir", dir_.path(), "--mode",
                 std::string(mode), "--openssl", OPENSSL_EXECUTABLE},
                "the TSA") {}

  std::string Url() const { return "http://127.0.0.1:" + std::to_string(server_.port()) + "/tsa"; }
  std::string CaFile() const { return dir_.path() + "/ca.pem"; }
  std::string CaPem() const { return Read(CaFile()); }
  // Switches the authority's mode while it runs.
  void SetMode(std::string_view mode) const {
    RunShell("curl -s -X POST http://127.0.0.1:" + std::to_string(server_.port()) + "/mode/" +
             std::string(mode));
  }
  // Tokens issued so far.
  size_t Served() const { return Lines("served"); }
  // Queries received so far, answered or not.
  size_t Received() const { return Lines("received"); }
  const std::string& dir() const { return dir_.path(); }

  size_t Lines(const std::string& name) const {
    const std::string text = Read(dir_.path() + "/" + name);
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  }
  static std::string Read(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }

 private:
  TempDir dir_;  // before server_: the server makes its files there
  LoopbackServer server_;
};

// A URL nothing listens on.
inline std::string RefusingUrl() {
  return "http://127.0.0.1:" + std::to_string(FreePort()) + "/tsa";
}

}  // namespace esign::testing
