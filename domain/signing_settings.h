// Signing settings of a contract (the specification leaves their fields open):
//   expiresInDays (integer 1..365, default 30): how long signing sessions may be opened after
//                 the contract is sent; enforced by the signing layer.
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

// The complete settings, or nullopt after adding details named "<path>.<member>".
std::optional<boost::json::object> ReadSigningSettings(const boost::json::value& value,
                                                       const std::string& path, Details& details);

}  // namespace esign
