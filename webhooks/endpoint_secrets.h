// EndpointSecrets: the signing secrets of webhook endpoints, kept out of the event log and out of
// Kafka: one file per endpoint, <data_dir>/webhook-secrets/<endpointId>.json, mode 0600 in a
// directory of mode 0700, replaced atomically (written beside, synced, renamed, directory synced).
// A file holds the current secret and, after a rotation, the previous ones with the time until
// which they keep signing. Secrets are Standard Webhooks secrets: "whsec_" + base64 of 32 random
// bytes. The directory also holds the Kafka message key (message_auth.h), which the dispatchers
// that read the secrets need as well.
// Thread safety: every method may be called from any thread (one mutex serializes changes).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign::webhooks {

class EndpointSecrets {
 public:
  // Creates the directory when absent. kStorage on I/O errors.
  static Result<std::unique_ptr<EndpointSecrets>> Open(const std::string& data_dir);
  // The secrets of another process's directory (`contractd dispatcher` reads contractd's
  // <data-dir>/webhook-secrets), for Signing only; kNotFound when it is not a directory.
  static Result<std::unique_ptr<EndpointSecrets>> OpenReader(const std::string& secrets_dir);

  // Generates and stores the first secret of an endpoint; returns it.
  Result<std::string> Create(std::string_view endpoint_id);
  struct Rotation {
    std::string secret;               // the new one
    int64_t previous_expires_at = 0;  // microseconds since the epoch
  };
  // Generates a new secret; the ones that still sign keep signing until now + overlap.
  Result<Rotation> Rotate(std::string_view endpoint_id, int64_t now_us, int64_t overlap_us);
  // The secrets that sign at `now`, newest first; kNotFound when the endpoint has no file.
  Result<std::vector<std::string>> Signing(std::string_view endpoint_id, int64_t now_us) const;
  struct Current {
    std::string secret;
    // previous_expires_at of the last rotation: it tells which rotation produced `secret`
    // (every rotation leaves its own expiry as the latest one in the file); 0 = never rotated,
    // `secret` is the endpoint's first.
    int64_t rotation_expires_at = 0;
  };
  // The secret in effect; kNotFound when the endpoint has no file (deleted).
  Result<Current> CurrentOf(std::string_view endpoint_id) const;
  // Removes the endpoint's file; absent is fine.
  Status Remove(std::string_view endpoint_id);
  // Forgets what was read, for a reader whose files another process changes (a rotation).
  void Forget();

  // The secret file's path, for tests.
  std::string PathOf(std::string_view endpoint_id) const;
  // The directory, which also holds the Kafka message key (message_auth.h).
  const std::string& dir() const { return dir_; }

 private:
  explicit EndpointSecrets(std::string dir) : dir_(std::move(dir)) {}
  struct Entry {
    std::string secret;
    int64_t expires_at = 0;  // 0 = current, no expiry
  };
  Result<std::vector<Entry>> Load(std::string_view endpoint_id) const;
  Status Save(std::string_view endpoint_id, const std::vector<Entry>& entries) const;

  const std::string dir_;
  mutable std::mutex mutex_;
  // What the files hold, read once: every change goes through this object (or Forget).
  mutable std::map<std::string, std::vector<Entry>, std::less<>> cache_;  // guarded by mutex_
};

// "whsec_" + base64 of 32 random bytes.
std::string NewWebhookSecret();

}  // namespace esign::webhooks
