// The admin socket: how the command line reaches a running contractd. RocksDB admits one process
// per database, so while the service runs, `contractd clients create` and `templates import`
// hand their request to it instead of opening the store.
//
// <data-dir>/admin.sock is a Unix stream socket, mode 0600 (bound under a temporary name,
// chmod-ed, then renamed into place, so it is never reachable with looser permissions), and
// peers must run as the service's user (SO_PEERCRED) or as root. Protocol: one connection, one
// JSON request line, one JSON response line (cli_commands.h), then the server closes.
//
// A socket file left by a killed server is stale: connecting to it is refused. The server
// replaces such a file at start; the client reports "no server" for it and the command line then
// opens the store itself.
//
// Thread safety: AdminSocketServer serves from a thread of its own, one connection at a time;
// Stop may be called from any thread. AdminRequest may be called from any thread.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "domain/result.h"

namespace esign::app {

inline constexpr std::string_view kAdminSocketName = "admin.sock";
// Longest request line a server reads (a template file travels inside one).
inline constexpr size_t kMaxAdminLineBytes = size_t{16} << 20;

class AdminSocketServer {
 public:
  // Receives one request line (without the newline) and returns the response line.
  using Handler = std::function<std::string(std::string_view request)>;

  // Listens on `path`; a stale socket file there is replaced. kUnavailable when another live
  // server answers on it; kStorage on other errors.
  static Result<std::unique_ptr<AdminSocketServer>> Start(const std::filesystem::path& path,
                                                          Handler handler);
  ~AdminSocketServer();  // stops
  AdminSocketServer(const AdminSocketServer&) = delete;
  AdminSocketServer& operator=(const AdminSocketServer&) = delete;

  // Finishes the request in progress, stops listening and removes the socket file (if it is still
  // the one this server created). Idempotent.
  void Stop();

 private:
  AdminSocketServer(std::filesystem::path path, Handler handler, int listen_fd, int stop_fd,
                    ino_t inode);
  void Run();
  void Serve(int fd);

  const std::filesystem::path path_;
  const Handler handler_;
  int listen_fd_;
  int stop_fd_;  // an eventfd that wakes the thread's poll
  ino_t inode_;
  std::thread thread_;
};

// Sends one request line to the server at `path` and returns its response line; std::nullopt
// when no server listens there (no socket file, or a stale one). kUnavailable when a server
// accepted the request but did not answer within `timeout`.
Result<std::optional<std::string>> AdminRequest(const std::filesystem::path& path,
                                                std::string_view request,
                                                std::chrono::milliseconds timeout);

}  // namespace esign::app
