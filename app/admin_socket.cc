#include "app/admin_socket.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "base/thread_name.h"
#include "domain/id_generator.h"

namespace esign::app {
namespace {

constexpr auto kServerIoTimeout = std::chrono::seconds(10);

// Closes a file descriptor when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

std::string ErrnoText() { return std::strerror(errno); }

// A Unix socket address for `path`. sun_path holds 107 bytes; a longer path is reached through
// its directory's descriptor ("/proc/self/fd/<n>/<name>"), which `dir` keeps open while the
// address is used.
Result<sockaddr_un> AddressOf(const std::filesystem::path& path, Fd& dir) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::string text = path.string();
  if (text.size() >= sizeof(address.sun_path)) {
    const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : ".";
    dir = Fd(::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0) {
      return Fail(ErrorCode::kStorage, "cannot open " + parent.string() + ": " + ErrnoText());
    }
    text = "/proc/self/fd/" + std::to_string(dir.get()) + "/" + path.filename().string();
    if (text.size() >= sizeof(address.sun_path)) {
      return Fail(ErrorCode::kStorage, "socket name too long: " + path.string());
    }
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return address;
}

void SetTimeouts(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Reads up to the first '\n' (not included). std::nullopt on error, timeout, or a line longer
// than `limit`; `eof_first` is set when the peer closed before sending anything.
std::optional<std::string> ReadLine(int fd, size_t limit, bool* eof_first = nullptr) {
  std::string line;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) {
      if (eof_first && line.empty()) *eof_first = true;
      return std::nullopt;
    }
    const std::string_view chunk(buffer, static_cast<size_t>(n));
    const size_t newline = chunk.find('\n');
    line.append(chunk.substr(0, newline));
    if (line.size() > limit) return std::nullopt;
    if (newline != std::string_view::npos) return line;
  }
}

enum class Probe { kNoFile, kStale, kLive, kError };

// Whether a server listens at `path`.
Probe ProbeSocket(const std::filesystem::path& path, int* error) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return errno == ENOENT ? Probe::kNoFile : Probe::kError;
  Fd dir;
  auto address = AddressOf(path, dir);
  if (!address) return Probe::kError;
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return Probe::kError;
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) == 0) {
    return Probe::kLive;
  }
  *error = errno;
  return errno == ECONNREFUSED || errno == ENOENT ? Probe::kStale : Probe::kError;
}

}  // namespace

Result<std::unique_ptr<AdminSocketServer>> AdminSocketServer::Start(
    const std::filesystem::path& path, Handler handler) {
  int probe_error = 0;
  switch (ProbeSocket(path, &probe_error)) {
    case Probe::kNoFile:
      break;
    case Probe::kLive:
      return Fail(ErrorCode::kUnavailable,
                  "another server answers on the admin socket " + path.string());
    case Probe::kStale: {
      // Left by a server that did not stop cleanly; only a socket file is ever removed.
      struct stat info {};
      if (::lstat(path.c_str(), &info) == 0 && S_ISSOCK(info.st_mode)) ::unlink(path.c_str());
      break;
    }
    case Probe::kError:
      return Fail(ErrorCode::kStorage, "cannot check the admin socket " + path.string() + ": " +
                                           std::strerror(probe_error ? probe_error : errno));
  }

  // Bound under a short temporary name in the same directory, restricted, then renamed into
  // place: the socket is never reachable under its real name with the process umask's mode.
  const std::filesystem::path temp =
      path.parent_path() / (".admin-" + RandomIdGenerator::Instance().Next("").substr(10));
  Fd dir;
  auto address = AddressOf(temp, dir);
  if (!address) return Fail(address.error());
  Fd listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (listener.get() < 0) return Fail(ErrorCode::kStorage, "socket: " + ErrnoText());
  if (::bind(listener.get(), reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) != 0) {
    return Fail(ErrorCode::kStorage, "cannot bind " + temp.string() + ": " + ErrnoText());
  }
  if (::chmod(temp.c_str(), 0600) != 0 || ::listen(listener.get(), 16) != 0 ||
      ::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string error = ErrnoText();
    ::unlink(temp.c_str());
    return Fail(ErrorCode::kStorage,
                "cannot set up the admin socket " + path.string() + ": " + error);
  }
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return Fail(ErrorCode::kStorage, "cannot stat " + path.string() + ": " + ErrnoText());
  }
  Fd stop(::eventfd(0, EFD_CLOEXEC));
  if (stop.get() < 0) {
    ::unlink(path.c_str());
    return Fail(ErrorCode::kStorage, "eventfd: " + ErrnoText());
  }
  std::unique_ptr<AdminSocketServer> server(new AdminSocketServer(
      path, std::move(handler), listener.release(), stop.release(), info.st_ino));
  server->thread_ = std::thread([raw = server.get()] {
    NameThisThread("esign-admin");
    raw->Run();
  });
  return server;
}

AdminSocketServer::AdminSocketServer(std::filesystem::path path, Handler handler, int listen_fd,
                                     int stop_fd, ino_t inode)
    : path_(std::move(path)),
      handler_(std::move(handler)),
      listen_fd_(listen_fd),
      stop_fd_(stop_fd),
      inode_(inode) {}

AdminSocketServer::~AdminSocketServer() { Stop(); }

void AdminSocketServer::Stop() {
  if (!thread_.joinable()) return;
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(stop_fd_, &one, sizeof(one));
  thread_.join();
  // Removed only while it is still ours, not a successor's.
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0 && info.st_ino == inode_) ::unlink(path_.c_str());
  ::close(listen_fd_);
  ::close(stop_fd_);
}

void AdminSocketServer::Run() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {stop_fd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    Fd connection(::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC));
    if (connection.get() >= 0) Serve(connection.get());
  }
}

void AdminSocketServer::Serve(int fd) {
  // The file mode already keeps other users out; the peer's credentials make sure of it.
  ucred peer{};
  socklen_t length = sizeof(peer);
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 ||
      (peer.uid != ::geteuid() && peer.uid != 0)) {
    return;
  }
  SetTimeouts(fd, kServerIoTimeout);
  const std::optional<std::string> request = ReadLine(fd, kMaxAdminLineBytes);
  if (!request) return;
  std::string response = handler_(*request);
  response.push_back('\n');
  WriteAll(fd, response);
}

Result<std::optional<std::string>> AdminRequest(const std::filesystem::path& path,
                                                std::string_view request,
                                                std::chrono::milliseconds timeout) {
  Fd dir;
  auto address = AddressOf(path, dir);
  if (!address) return Fail(address.error());
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) return Fail(ErrorCode::kStorage, "socket: " + ErrnoText());
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&*address), sizeof(*address)) != 0) {
    if (errno == ENOENT || errno == ECONNREFUSED) return std::nullopt;
    return Fail(ErrorCode::kUnavailable,
                "cannot reach the admin socket " + path.string() + ": " + ErrnoText());
  }
  SetTimeouts(fd.get(), timeout);
  std::string line(request);
  line.push_back('\n');
  if (!WriteAll(fd.get(), line)) {
    // A server that stops closes connections it has not accepted: nothing was run.
    if (errno == EPIPE || errno == ECONNRESET) return std::nullopt;
    return Fail(ErrorCode::kUnavailable, "cannot send to the admin socket: " + ErrnoText());
  }
  bool closed_unanswered = false;
  auto response = ReadLine(fd.get(), kMaxAdminLineBytes, &closed_unanswered);
  if (response) return response;
  if (closed_unanswered || errno == ECONNRESET) return std::nullopt;
  return Fail(ErrorCode::kUnavailable, "the server did not answer on the admin socket");
}

}  // namespace esign::app
