#include "mail/eml_file_transport.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "base/sha256.h"

namespace esign::mail {
namespace {

using delivery::AttemptOutcome;

constexpr size_t kNameLimit = 150;  // file names stay far below the 255 bytes of most systems

std::string ErrnoText(std::string_view what, const std::string& path) {
  return std::string(what) + " " + path + ": " + std::strerror(errno);
}

// The Message-ID header's value without its angle brackets; empty when there is none.
std::string MessageIdOf(std::string_view mime) {
  const std::string_view headers = mime.substr(0, mime.find("\r\n\r\n"));
  constexpr std::string_view kName = "message-id:";
  size_t start = 0;
  while (start < headers.size()) {
    const size_t end = std::min(headers.find("\r\n", start), headers.size());
    const std::string_view line = headers.substr(start, end - start);
    start = end + 2;
    if (line.size() < kName.size()) continue;
    bool match = true;
    for (size_t i = 0; i < kName.size(); ++i) {
      match = match && std::tolower(static_cast<unsigned char>(line[i])) == kName[i];
    }
    if (!match) continue;
    std::string_view value = line.substr(kName.size());
    while (!value.empty() && (value.front() == ' ' || value.front() == '<')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '>')) value.remove_suffix(1);
    return std::string(value);
  }
  return "";
}

bool IsSafeNameCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '@' || c == '+' || c == '-';
}

Status EnsureDirectory(const std::string& dir) {
  std::error_code error;
  if (std::filesystem::is_directory(dir, error)) return {};
  if (!std::filesystem::create_directories(dir, error) || error) {
    return Fail(ErrorCode::kStorage, "cannot create the directory " + dir + ": " +
                                         (error ? error.message() : "it exists as a file"));
  }
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace, error);
  if (error) {
    return Fail(ErrorCode::kStorage,
                "cannot make " + dir + " private (mode 0700): " + error.message());
  }
  return {};
}

// Writes `bytes` to a fresh temporary file of `dir` and syncs it; its path.
Result<std::string> WriteTemporary(const std::string& dir, std::string_view prefix,
                                   std::string_view bytes) {
  std::string path = dir + "/." + std::string(prefix) + ".XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return Fail(ErrorCode::kStorage, ErrnoText("cannot write in", dir));
  while (!bytes.empty()) {
    const ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      const std::string error = ErrnoText("cannot write", path);
      ::close(fd);
      ::unlink(path.c_str());
      return Fail(ErrorCode::kStorage, error);
    }
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string error = ErrnoText("cannot sync", path);
    ::unlink(path.c_str());
    return Fail(ErrorCode::kStorage, error);
  }
  return path;
}

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Fail(ErrorCode::kStorage, ErrnoText("cannot open", dir));
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) return Fail(ErrorCode::kStorage, ErrnoText("cannot sync", dir));
  return {};
}

Result<std::string> WriteAtomically(const std::string& dir, const std::string& name,
                                    std::string_view bytes) {
  if (Status made = EnsureDirectory(dir); !made) return std::unexpected(made.error());
  Result<std::string> temporary = WriteTemporary(dir, name, bytes);
  if (!temporary) return temporary;
  const std::string path = dir + "/" + name;
  if (::rename(temporary->c_str(), path.c_str()) != 0) {
    const std::string error = ErrnoText("cannot rename into", path);
    ::unlink(temporary->c_str());
    return Fail(ErrorCode::kStorage, error);
  }
  if (Status synced = SyncDirectory(dir); !synced) return std::unexpected(synced.error());
  return path;
}

}  // namespace

EmlFileTransport::EmlFileTransport(std::string dir) : dir_(std::move(dir)) {}

std::string EmlFileTransport::FileName(std::string_view mime) {
  const std::string id = MessageIdOf(mime);
  if (id.empty()) return Sha256Hex(mime) + ".eml";
  std::string name;
  for (char c : id.substr(0, kNameLimit)) name += IsSafeNameCharacter(c) ? c : '_';
  // A changed or shortened id could meet another's name; its digest keeps them apart.
  if (name != id || name.front() == '.') name += "-" + Sha256Hex(id).substr(0, 16);
  return name + ".eml";
}

AttemptOutcome EmlFileTransport::Send(std::string_view /*envelope_from*/,
                                      std::string_view /*envelope_to*/, std::string_view mime) {
  const auto start = std::chrono::steady_clock::now();
  const Result<std::string> written = WriteAtomically(dir_, FileName(mime), mime);
  AttemptOutcome outcome;
  outcome.latency = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  if (written) {
    outcome.kind = AttemptOutcome::Kind::kDelivered;
    outcome.code = 250;
    outcome.reply = "written to " + *written;
  } else {
    outcome.kind = AttemptOutcome::Kind::kRetry;
    outcome.reply = written.error().message;
  }
  return outcome;
}

Status EmlFileTransport::Check() {
  if (Status made = EnsureDirectory(dir_); !made) return made;
  Result<std::string> probe = WriteTemporary(dir_, "check", "");
  if (!probe) return std::unexpected(probe.error());
  ::unlink(probe->c_str());
  return {};
}

std::string EmlFileTransport::Describe() const { return "files in " + dir_; }

}  // namespace esign::mail
