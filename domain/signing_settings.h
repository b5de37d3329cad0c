// Signing settings of a contract (the specification leaves their fields open):
//   expiresInDays (integer 1..365, default 30): the contract expires this many days after it is
//                 sent, unless expiresAt is given.
//   expiresAt     (RFC 3339, optional): the contract expires then. Must be in the future and at
//                 most 365 days ahead, when given and again when the contract is sent. Stored in
//                 the service's form (UTC, microseconds).
//   allowDecline  (boolean, default true): whether a signer may decline.
// A given object replaces the current settings; omitted members take their defaults, so the
// stored object is always complete. Unknown members fail with kValidationFailed.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>

#include "domain/json_util.h"

namespace esign {

const boost::json::object& DefaultSigningSettings();

// Whether a signer may decline under these settings (anything but allowDecline false allows it).
bool AllowsDecline(const boost::json::object& settings);

// The longest a contract may stay out for signing.
inline constexpr int64_t kMaxExpiryDays = 365;

// The complete settings, or nullopt after adding details named "<path>.<member>". `now` (the
// decision's time, RFC 3339) bounds expiresAt.
std::optional<boost::json::object> ReadSigningSettings(const boost::json::value& value,
                                                       const std::string& path,
                                                       std::string_view now, Details& details);

// When a contract sent at `sent_at` under `settings` expires (microseconds since the epoch):
// expiresAt when set, else expiresInDays (default 30) after sending; nullopt for unreadable times.
std::optional<int64_t> ExpiryMicros(const boost::json::object& settings, std::string_view sent_at);

// Adds a detail "<path>.expiresAt" when the settings' expiresAt is not after `now` or more than
// kMaxExpiryDays ahead of it.
void CheckExpiresAt(const boost::json::object& settings, std::string_view path,
                    std::string_view now, Details& details);

}  // namespace esign
