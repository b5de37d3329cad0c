// An organization's own settings in the log: its contact for e-mail
// (domain/organization_contact.h, the administrative command organizations.set) and what it sets
// for its signers' pages (domain/organization_settings.h: frame origins and branding, set by the
// same command and by PATCH /api/v1/organization). Both live in the stream organization-<id>;
// the latest event of each kind holds.
// Thread safety: as the EventStore's.
#pragma once

#include <string_view>

#include "domain/organization_contact.h"
#include "domain/organization_settings.h"
#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::commands {

struct OrganizationProfile {
  OrganizationContact contact;
  OrganizationSettings settings;
  StreamVersion version;  // of the stream read: a change is appended only onto it
};

// Appends organization.contact_set; setting what is already set appends nothing.
Status SetOrganizationContact(eventstore::EventStore& store, std::string_view organization_id,
                              std::string_view email, std::string_view name,
                              const eventstore::Actor& actor);

// Appends organization.settings_set when `settings` differ from the profile's, onto the stream as
// the profile read it: kStreamVersionConflict when another change came in between.
Status SetOrganizationSettings(eventstore::EventStore& store, std::string_view organization_id,
                               const OrganizationProfile& read,
                               const OrganizationSettings& settings,
                               const eventstore::Actor& actor);

// The organization's latest contact and settings; empty when none was ever set.
Result<OrganizationProfile> ReadOrganization(const eventstore::EventStore& store,
                                             std::string_view organization_id);

// The latest contact of the organization; empty when none was ever set.
Result<OrganizationContact> ReadOrganizationContact(const eventstore::EventStore& store,
                                                    std::string_view organization_id);

}  // namespace esign::commands
