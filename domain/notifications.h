// E-mail notification settings: the catalog of events and the settings each supports, the
// validation of an override, and the resolution of the effective settings per setting:
// platform defaults < organization < template version < contract override.
//
// Catalog (event key: settings):
//   "contract.sent":      enabled (bool), subject (string 1..200), message (string 0..2000)
//   "signer.completed":   enabled (bool), recipients
//   "contract.completed": enabled (bool), recipients, attachSignedPdf (bool)
//   "contract.declined":  enabled (bool), recipients
//   "contract.voided":    enabled (bool), recipients
//   "contract.expired":   enabled (bool), recipients
//   "reminder":           enabled (bool), firstAfterDays (int 1..60), intervalDays (int 1..30),
//                         maxCount (int 0..10)
// recipients: array of distinct values among "owner", "signers", "viewers", "copy_recipients";
// an empty array notifies nobody. Omitting an event or a setting (or giving it null) inherits the
// broader default; a setting is replaced whole (recipients is not merged element by element).
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string_view>

#include "domain/json_util.h"
#include "domain/result.h"

namespace esign {

// Adds one detail per problem, named "<path>.<event>.<setting>" (or "<path>" / "<path>.<event>"
// when the container itself is wrong). `path` is "notifications" for requests.
void CheckNotificationSettings(const boost::json::value& value, std::string_view path,
                               Details& details);

// kInvalidNotificationSettings carrying every problem, or success. A null value is valid (none).
Status ValidateNotificationSettings(const boost::json::value& value,
                                    std::string_view path = "notifications");

// The built-in platform defaults: every event and setting of the catalog.
const boost::json::object& PlatformNotificationDefaults();

// `over` on top of `base`, setting by setting. Both must be valid (or empty) overrides.
boost::json::object MergeNotificationSettings(const boost::json::object& base,
                                              const boost::json::object& over);

// The effective settings: every event and setting of the catalog, each from the most specific
// layer that sets it. This is what contract.prepared snapshots.
boost::json::object ResolveNotifications(const boost::json::object& platform,
                                         const boost::json::object& organization,
                                         const boost::json::object& template_defaults,
                                         const boost::json::object& contract_override);

}  // namespace esign
