#include "commands/organization_commands.h"

#include "domain/id_generator.h"
#include "domain/stream_kinds.h"
#include "domain/text_formats.h"

namespace esign::commands {
namespace {

// Events read from the organization's stream at a time, newest first.
constexpr uint64_t kReadPage = 64;

Status RequireOrganizationId(std::string_view organization_id) {
  if (IsClientIdentifier(organization_id)) return {};
  return Fail(ErrorCode::kValidationFailed, "invalid organization id", "organizationId",
              "1..64 letters, digits, '_' or '-'");
}

Status AppendToOrganization(eventstore::EventStore& store, std::string_view organization_id,
                            eventstore::ExpectedVersion expected, std::string_view type,
                            const boost::json::object& data, const eventstore::Actor& actor) {
  eventstore::NewEvent event;
  event.type = std::string(type);
  event.data = boost::json::serialize(data);
  event.actor = actor;
  event.event_id = RandomIdGenerator::Instance().Next("evt_");
  auto appended = store.Append(StreamIdOf(StreamKind::kOrganization, organization_id), expected,
                               {std::move(event)});
  if (!appended) return Fail(appended.error());
  return {};
}

}  // namespace

Status SetOrganizationContact(eventstore::EventStore& store, std::string_view organization_id,
                              std::string_view email, std::string_view name,
                              const eventstore::Actor& actor) {
  if (auto ok = RequireOrganizationId(organization_id); !ok) return ok;
  auto data = OrganizationContactData(email, name);
  if (!data) return Fail(data.error());
  auto current = ReadOrganizationContact(store, organization_id);
  if (!current) return Fail(current.error());
  if (current->name == name && (current->owner ? current->owner->email : std::string()) == email) {
    return {};
  }
  return AppendToOrganization(store, organization_id, eventstore::ExpectedVersion::Any(),
                              kOrganizationContactSet, *data, actor);
}

Status SetOrganizationSettings(eventstore::EventStore& store, std::string_view organization_id,
                               const OrganizationProfile& read,
                               const OrganizationSettings& settings,
                               const eventstore::Actor& actor) {
  if (auto ok = RequireOrganizationId(organization_id); !ok) return ok;
  if (settings == read.settings) return {};
  return AppendToOrganization(store, organization_id,
                              eventstore::ExpectedVersion::Exactly(read.version),
                              kOrganizationSettingsSet, OrganizationSettingsData(settings), actor);
}

Result<OrganizationProfile> ReadOrganization(const eventstore::EventStore& store,
                                             std::string_view organization_id) {
  const std::string stream = StreamIdOf(StreamKind::kOrganization, organization_id);
  OrganizationProfile profile;
  auto version = store.CurrentVersion(stream);
  if (!version) return std::unexpected(version.error());
  profile.version = *version;
  // Only the latest event of each kind holds, and every hosted page and every mail reads this:
  // newest first, in pages, until both are found (the stream grows with every change).
  bool contact = false;
  bool settings = false;
  uint64_t end = version->value();
  while (end > 0 && !(contact && settings)) {
    const uint64_t from = end > kReadPage ? end - kReadPage + 1 : 1;
    auto records = store.ReadStream(stream, StreamVersion(from), end - from + 1);
    if (!records) return std::unexpected(records.error());
    for (auto it = records->rbegin(); it != records->rend(); ++it) {
      const bool is_contact = it->type == kOrganizationContactSet && !contact;
      const bool is_settings = it->type == kOrganizationSettingsSet && !settings;
      if (!is_contact && !is_settings) continue;
      boost::system::error_code ec;
      const boost::json::value data = boost::json::parse(it->data, ec);
      const boost::json::object object =
          !ec && data.is_object() ? data.get_object() : boost::json::object{};
      if (is_contact) profile.contact = OrganizationContactFrom(object);
      if (is_settings) profile.settings = OrganizationSettingsFrom(object);
      contact = contact || is_contact;
      settings = settings || is_settings;
    }
    end = from - 1;
  }
  return profile;
}

Result<OrganizationContact> ReadOrganizationContact(const eventstore::EventStore& store,
                                                    std::string_view organization_id) {
  auto profile = ReadOrganization(store, organization_id);
  if (!profile) return std::unexpected(profile.error());
  return std::move(profile->contact);
}

}  // namespace esign::commands
