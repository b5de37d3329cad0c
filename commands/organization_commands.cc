#include "commands/organization_commands.h"

#include "domain/id_generator.h"
#include "domain/stream_kinds.h"
#include "domain/text_formats.h"

namespace esign::commands {

Status SetOrganizationContact(eventstore::EventStore& store, std::string_view organization_id,
                              std::string_view email, std::string_view name,
                              const eventstore::Actor& actor) {
  if (!IsClientIdentifier(organization_id)) {
    return Fail(ErrorCode::kValidationFailed, "invalid organization id", "organizationId",
                "1..64 letters, digits, '_' or '-'");
  }
  auto data = OrganizationContactData(email, name);
  if (!data) return Fail(data.error());
  auto current = ReadOrganizationContact(store, organization_id);
  if (!current) return Fail(current.error());
  if (current->name == name && (current->owner ? current->owner->email : std::string()) == email) {
    return {};
  }
  const std::string stream = StreamIdOf(StreamKind::kOrganization, organization_id);
  eventstore::NewEvent event;
  event.type = std::string(kOrganizationContactSet);
  event.data = boost::json::serialize(*data);
  event.actor = actor;
  event.event_id = RandomIdGenerator::Instance().Next("evt_");
  auto appended = store.Append(stream, eventstore::ExpectedVersion::Any(), {std::move(event)});
  if (!appended) return Fail(appended.error());
  return {};
}

Result<OrganizationContact> ReadOrganizationContact(const eventstore::EventStore& store,
                                                    std::string_view organization_id) {
  const std::string stream = StreamIdOf(StreamKind::kOrganization, organization_id);
  auto version = store.CurrentVersion(stream);
  if (!version) return std::unexpected(version.error());
  if (version->value() == 0) return OrganizationContact{};
  auto records = store.ReadStream(stream, *version, 1);
  if (!records) return std::unexpected(records.error());
  if (records->empty()) return OrganizationContact{};
  boost::system::error_code ec;
  const boost::json::value data = boost::json::parse(records->back().data, ec);
  if (ec || !data.is_object()) return OrganizationContact{};
  return OrganizationContactFrom(data.as_object());
}

}  // namespace esign::commands
