#include "webhooks/endpoint_secrets.h"

#include "base/base64.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "domain/id_generator.h"
#include "eventstore/secret_file.h"
#include "webhooks/delivery_message.h"

namespace esign::webhooks {
namespace {

// A full disk is kStorageUnavailable, as for the log: nothing was stored, retry later.
std::unexpected<Error> IoFail(const std::string& what) {
  const ErrorCode code =
      errno == ENOSPC || errno == EDQUOT ? ErrorCode::kStorageUnavailable : ErrorCode::kStorage;
  return Fail(code, what + ": " + std::strerror(errno));
}

// Server-generated ids only: nothing that could leave the directory.
bool SafeId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

Status WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoFail("writing a webhook secret file");
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return {};
}

}  // namespace

std::string NewWebhookSecret() { return "whsec_" + Base64Encode(RandomBytes(32)); }

Result<std::unique_ptr<EndpointSecrets>> EndpointSecrets::Open(const std::string& data_dir) {
  const std::string dir = (std::filesystem::path(data_dir) / "webhook-secrets").string();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return IoFail("creating " + dir);
  }
  return std::unique_ptr<EndpointSecrets>(new EndpointSecrets(dir));
}

Result<std::unique_ptr<EndpointSecrets>> EndpointSecrets::OpenReader(
    const std::string& secrets_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(secrets_dir, ec)) {
    return Fail(ErrorCode::kNotFound, "no webhook secret directory " + secrets_dir);
  }
  return std::unique_ptr<EndpointSecrets>(new EndpointSecrets(secrets_dir));
}

void EndpointSecrets::Forget() {
  std::lock_guard lock(mutex_);
  cache_.clear();
}

std::string EndpointSecrets::PathOf(std::string_view endpoint_id) const {
  return dir_ + "/" + std::string(endpoint_id) + ".json";
}

Result<std::vector<EndpointSecrets::Entry>> EndpointSecrets::Load(
    std::string_view endpoint_id) const {
  if (!SafeId(endpoint_id)) return Fail(ErrorCode::kNotFound, "no such endpoint");
  if (auto cached = cache_.find(endpoint_id); cached != cache_.end()) return cached->second;
  auto text = eventstore::ReadFileIfPresent(PathOf(endpoint_id));
  if (!text) return std::unexpected(text.error());
  if (!*text)
    return Fail(ErrorCode::kNotFound, "no secret for endpoint " + std::string(endpoint_id));
  boost::system::error_code ec;
  const boost::json::value value = boost::json::parse(**text, ec);
  std::vector<Entry> entries;
  try {
    if (ec) throw std::runtime_error(ec.message());
    for (const auto& e : value.at("secrets").as_array()) {
      entries.push_back({std::string(e.at("secret").as_string()), e.at("expiresAt").as_int64()});
    }
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kCorruption, "webhook secret file of " + std::string(endpoint_id) +
                                            " is not valid: " + e.what());
  }
  cache_.insert_or_assign(std::string(endpoint_id), entries);
  return entries;
}

Status EndpointSecrets::Save(std::string_view endpoint_id,
                             const std::vector<Entry>& entries) const {
  if (!SafeId(endpoint_id)) return Fail(ErrorCode::kValidationFailed, "bad endpoint id");
  boost::json::array secrets;
  for (const auto& e : entries) {
    secrets.push_back(boost::json::object{{"secret", e.secret}, {"expiresAt", e.expires_at}});
  }
  const std::string bytes = boost::json::serialize(boost::json::object{{"secrets", secrets}});
  const std::string path = PathOf(endpoint_id);
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return IoFail("creating " + temp);
  Status written = WriteAll(fd, bytes);
  if (written && ::fsync(fd) != 0) written = IoFail("syncing " + temp);
  ::close(fd);
  if (!written) return written;
  if (::rename(temp.c_str(), path.c_str()) != 0) return IoFail("renaming " + temp);
  const int dir_fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    (void)::fsync(dir_fd);
    ::close(dir_fd);
  }
  cache_.insert_or_assign(std::string(endpoint_id), entries);
  return {};
}

Result<std::string> EndpointSecrets::Create(std::string_view endpoint_id) {
  std::lock_guard lock(mutex_);
  std::string secret = NewWebhookSecret();
  if (auto saved = Save(endpoint_id, {{secret, 0}}); !saved) return std::unexpected(saved.error());
  return secret;
}

Result<EndpointSecrets::Rotation> EndpointSecrets::Rotate(std::string_view endpoint_id,
                                                          int64_t now_us, int64_t overlap_us) {
  std::lock_guard lock(mutex_);
  auto entries = Load(endpoint_id);
  if (!entries) return std::unexpected(entries.error());
  Rotation rotation{NewWebhookSecret(), now_us + overlap_us};
  std::vector<Entry> next{{rotation.secret, 0}};
  for (const Entry& e : *entries) {
    if (e.expires_at != 0 && e.expires_at <= now_us) continue;  // already retired
    // Older secrets never sign longer than they were promised, nor longer than the overlap.
    const int64_t until = e.expires_at == 0 ? rotation.previous_expires_at
                                            : std::min(e.expires_at, rotation.previous_expires_at);
    next.push_back({e.secret, until});
  }
  if (auto saved = Save(endpoint_id, next); !saved) return std::unexpected(saved.error());
  return rotation;
}

Result<std::vector<std::string>> EndpointSecrets::Signing(std::string_view endpoint_id,
                                                          int64_t now_us) const {
  std::lock_guard lock(mutex_);
  auto entries = Load(endpoint_id);
  if (!entries) return std::unexpected(entries.error());
  std::vector<std::string> secrets;
  for (const Entry& e : *entries) {
    if (e.expires_at == 0 || e.expires_at > now_us) secrets.push_back(e.secret);
  }
  return secrets;
}

Result<EndpointSecrets::Current> EndpointSecrets::CurrentOf(std::string_view endpoint_id) const {
  std::lock_guard lock(mutex_);
  auto entries = Load(endpoint_id);
  if (!entries) return std::unexpected(entries.error());
  Current current;
  for (const Entry& e : *entries) {
    if (e.expires_at == 0) current.secret = e.secret;
    current.rotation_expires_at = std::max(current.rotation_expires_at, e.expires_at);
  }
  if (current.secret.empty()) {
    return Fail(ErrorCode::kCorruption,
                "webhook secret file of " + std::string(endpoint_id) + " has no current secret");
  }
  return current;
}

Status EndpointSecrets::Remove(std::string_view endpoint_id) {
  std::lock_guard lock(mutex_);
  if (!SafeId(endpoint_id)) return {};
  cache_.erase(std::string(endpoint_id));
  if (::unlink(PathOf(endpoint_id).c_str()) != 0 && errno != ENOENT) {
    return IoFail("removing the secret of " + std::string(endpoint_id));
  }
  return {};
}

}  // namespace esign::webhooks
