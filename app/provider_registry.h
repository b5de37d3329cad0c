// Signing providers (DESIGN section 10): organizations sign through an external provider that
// the service starts (optionally, at its start URL) and that reports back by signed callbacks.
//
// A provider's configuration is a secret (the HMAC key of its callbacks), so it is kept out of
// the event log, which auditors and analytics read: each provider is a file
// <data-dir>/providers/<id>.json, mode 0600, written once by `contractd providers add` and read
// by the running service when it needs it. Files, not a running server, make the command work
// whether or not the service runs.
// Thread safety: every method may be called from any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "domain/result.h"

namespace esign::app {

struct ProviderConfig {
  std::string id;         // [a-z0-9_-]{1,64}
  std::string secret;     // at least 16 characters
  std::string start_url;  // optional: http(s) URL the service posts new sessions to
  std::string created_at;
};

// Validates and installs a provider. kValidationFailed for a bad id, secret or URL, or an id
// that exists already (a provider's secret is never replaced in place); kStorage on I/O errors.
Status AddProvider(const std::string& data_dir, const ProviderConfig& provider);

class ProviderRegistry {
 public:
  explicit ProviderRegistry(std::string data_dir) : data_dir_(std::move(data_dir)) {}

  // The provider, or nothing when none has that id (or its file is unreadable).
  std::optional<ProviderConfig> Find(const std::string& id) const;
  // Every configured provider id, sorted.
  std::vector<std::string> Ids() const;

 private:
  std::string data_dir_;
};

}  // namespace esign::app
