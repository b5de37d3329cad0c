// The organization's notification address in the log (domain/organization_contact.h): set by
// the administrative command organizations.set, read by the e-mail outbox for `owner`.
// Thread safety: as the EventStore's.
#pragma once

#include <string_view>

#include "domain/organization_contact.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

// Appends organization.contact_set; setting what is already set appends nothing.
Status SetOrganizationContact(eventstore::EventStore& store, std::string_view organization_id,
                              std::string_view email, std::string_view name,
                              const eventstore::Actor& actor);

// The latest contact of the organization; empty when none was ever set.
Result<OrganizationContact> ReadOrganizationContact(const eventstore::EventStore& store,
                                                    std::string_view organization_id);

}  // namespace esign::commands
