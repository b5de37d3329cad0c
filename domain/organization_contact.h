// The organization's notification address: who `owner` is in the e-mail settings (DESIGN 15).
// Set by `contractd organizations set`, recorded as organization.contact_set in the stream
// organization-<id>; the latest event holds. An empty address means none: no owner mail.
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string_view>

#include <boost/json.hpp>

#include "domain/mail_plan.h"
#include "domain/result.h"

namespace esign {

inline constexpr std::string_view kOrganizationContactSet = "organization.contact_set";
// Longest organization name in the messages.
inline constexpr size_t kMaxOrganizationNameLength = 200;

// The event data {email, name}; kValidationFailed for an address that is not one (an empty one
// removes it) or a name too long or with control characters.
Result<boost::json::object> OrganizationContactData(std::string_view email, std::string_view name);

// The contact an event's data sets: nothing without an address. The name stays empty when none.
struct OrganizationContact {
  std::optional<OwnerContact> owner;
  std::string name;  // the organization's name in messages; may be set without an address
};
OrganizationContact OrganizationContactFrom(const boost::json::object& data);

}  // namespace esign
