#include "eventstore/secret_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace esign::eventstore {
namespace {

std::unexpected<Error> StorageError(const std::string& what, const std::string& path) {
  return Fail(ErrorCode::kStorage, what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

Result<std::optional<std::string>> ReadFileIfPresent(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    return StorageError("cannot open", path);
  }
  std::string contents;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      auto error = StorageError("cannot read", path);
      ::close(fd);
      return error;
    }
    contents.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return std::optional<std::string>(std::move(contents));
}

namespace {

Status WriteAllAndSync(int fd, std::string_view bytes, const std::string& path,
                       FileSync sync = FileSync::kNow) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return StorageError("cannot write", path);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  if (sync == FileSync::kNow && ::fsync(fd) != 0) return StorageError("cannot sync", path);
  return {};
}

}  // namespace

Status SyncDirectory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return StorageError("cannot open", dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return StorageError("cannot sync", dir);
  return {};
}

Status WriteNewFile(const std::string& path, std::string_view bytes, unsigned mode, FileSync sync) {
  // Created with no permission for others, then given `mode`: a secret is never readable by
  // more than its final mode allows, not even for a moment.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return StorageError("cannot create", path);
  Status written = ::fchmod(fd, static_cast<mode_t>(mode & 07777)) == 0
                       ? WriteAllAndSync(fd, bytes, path, sync)
                       : StorageError("cannot set the mode of", path);
  ::close(fd);
  if (!written) ::unlink(path.c_str());
  return written;
}

Result<bool> PublishSecretFile(const std::string& dir, const std::string& name,
                               std::string_view pem) {
  const std::string path = dir + "/" + name;
  std::string temp = dir + "/." + name + ".XXXXXX";
  const int fd = ::mkstemp(temp.data());  // creates the file with mode 0600
  if (fd < 0) return StorageError("cannot create", temp);
  Status written = ::fchmod(fd, 0600) == 0 ? WriteAllAndSync(fd, pem, temp)
                                           : StorageError("cannot set the mode of", temp);
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return Fail(std::move(written.error()));
  }
  const int linked = ::link(temp.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(temp.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) return false;
    errno = link_errno;
    return StorageError("cannot install", path);
  }
  if (Status synced = SyncDirectory(dir); !synced) return Fail(std::move(synced.error()));
  return true;
}

}  // namespace esign::eventstore
