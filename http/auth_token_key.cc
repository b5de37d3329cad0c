#include "http/auth_token_key.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "domain/id_generator.h"

namespace esign::http {
namespace {

constexpr size_t kKeyBytes = 32;

std::unexpected<Error> IoError(const std::string& what, const std::filesystem::path& file) {
  return Fail(ErrorCode::kStorage, what + " " + file.string() + ": " + std::strerror(errno));
}

// The key, std::nullopt when the file does not exist.
Result<std::optional<std::string>> ReadKey(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    return IoError("cannot open", file);
  }
  std::string key(kKeyBytes + 1, '\0');
  size_t got = 0;
  while (got < key.size()) {
    const ssize_t n = ::read(fd, key.data() + got, key.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      return IoError("cannot read", file);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  if (got != kKeyBytes) {
    return Fail(ErrorCode::kCorruption, "the token key " + file.string() + " is not " +
                                            std::to_string(kKeyBytes) + " bytes");
  }
  key.resize(kKeyBytes);
  return key;
}

Status WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fail(ErrorCode::kStorage, std::strerror(errno));
    done += static_cast<size_t>(n);
  }
  return {};
}

Status SyncDirectory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open directory", dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return IoError("cannot sync directory", dir);
  return {};
}

}  // namespace

Result<std::string> LoadOrCreateTokenKey(const std::filesystem::path& file) {
  auto existing = ReadKey(file);
  if (!existing) return Fail(existing.error());
  if (*existing) return std::move(**existing);

  const std::filesystem::path temp =
      file.string() + ".tmp." + RandomIdGenerator::Instance().Next("");
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return IoError("cannot create", temp);
  const std::string key = RandomBytes(kKeyBytes);
  Status written = WriteAll(fd, key);
  if (written && ::fsync(fd) != 0) written = IoError("cannot sync", temp);
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return Fail(written.error());
  }
  // link(2), unlike rename(2), never replaces: a key another process linked first wins.
  const int linked = ::link(temp.c_str(), file.c_str());
  const int link_errno = errno;
  ::unlink(temp.c_str());
  if (linked != 0 && link_errno != EEXIST) {
    errno = link_errno;
    return IoError("cannot link", file);
  }
  if (linked != 0) {
    auto theirs = ReadKey(file);
    if (!theirs) return Fail(theirs.error());
    if (!*theirs) return Fail(ErrorCode::kStorage, "the token key vanished: " + file.string());
    return std::move(**theirs);
  }
  if (Status synced = SyncDirectory(file.parent_path().empty() ? "." : file.parent_path());
      !synced) {
    return Fail(synced.error());
  }
  return key;
}

}  // namespace esign::http
