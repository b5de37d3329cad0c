#include "commands/organization_templates.h"

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/json_parse.h"
#include "domain/placed_field_rules.h"
#include "domain/stream_kinds.h"
#include "domain/template_events.h"
#include "domain/template_json.h"
#include "domain/text_formats.h"

namespace esign::commands {
namespace {

constexpr int kMaxAttempts = 5;

std::unexpected<Error> TemplateNotFound(std::string_view id) {
  return Fail(ErrorCode::kTemplateNotFound, "no template " + std::string(id), "id",
              std::string(id));
}

// Whether the caller may change the template (the rules in the header).
Status Writable(const std::optional<Template>& tmpl, const TemplateCaller& caller,
                std::string_view id) {
  if (!tmpl || (tmpl->organization_id && *tmpl->organization_id != caller.organization_id)) {
    return TemplateNotFound(id);
  }
  if (!tmpl->organization_id) {
    return Fail(ErrorCode::kPermissionDenied,
                "template " + std::string(id) +
                    " is a platform template; only the operator "
                    "changes it",
                "id", "platform template");
  }
  return {};
}

Status NotArchived(const Template& tmpl) {
  if (!tmpl.archived) return {};
  return Fail(ErrorCode::kTemplateArchived, "template " + tmpl.template_id + " is archived", "id",
              "archived");
}

Status WithinLimits(const TemplateCounts& counts) {
  if (counts.active >= kMaxActiveTemplatesPerOrganization) {
    const std::string limit = std::to_string(kMaxActiveTemplatesPerOrganization);
    return Fail(ErrorCode::kValidationFailed,
                "the organization has " + limit + " templates, the most it may have", "body",
                "at most " + limit + " templates per organization; archive one first");
  }
  if (counts.total >= kMaxTemplatesPerOrganization) {
    const std::string limit = std::to_string(kMaxTemplatesPerOrganization);
    return Fail(ErrorCode::kValidationFailed,
                "the organization has made " + limit + " templates, the most it may make", "body",
                "at most " + limit + " templates per organization, archived ones included");
  }
  return {};
}

}  // namespace

OrganizationTemplates::OrganizationTemplates(eventstore::EventStore& store, TemplateCounter counter,
                                             AfterTemplateWrite after_write, IdGenerator& ids)
    : store_(store),
      counter_(std::move(counter)),
      after_write_(std::move(after_write)),
      ids_(ids) {}

Result<OrganizationTemplates::Loaded> OrganizationTemplates::Load(std::string_view template_id,
                                                                  uint64_t version) const {
  if (!IsClientIdentifier(template_id)) return Loaded{};  // names no stream: no such template
  auto events = store_.ReadStream(TemplateStreamId(template_id), StreamVersion(1),
                                  version == 0 ? SIZE_MAX : version);
  if (!events) return std::unexpected(events.error());
  Loaded loaded;
  for (const auto& event : *events) {
    if (Status applied = ApplyTemplateEvent(loaded.tmpl, template_id, event.type, event.data);
        !applied) {
      return std::unexpected(applied.error());
    }
    loaded.version = event.version.value();
  }
  loaded.events = std::move(*events);
  return loaded;
}

Result<OrganizationTemplates::Loaded> OrganizationTemplates::LoadWritable(
    const TemplateCaller& caller, std::string_view template_id) const {
  auto loaded = Load(template_id);
  if (!loaded) return loaded;
  if (Status writable = Writable(loaded->tmpl, caller, template_id); !writable) {
    return std::unexpected(writable.error());
  }
  return loaded;
}

Result<std::vector<UploadedDocument>> OrganizationTemplates::UploadsNamedBy(
    const TemplateCaller& caller, const boost::json::value& request) const {
  if (!find_uploads_ || !request.is_object()) return std::vector<UploadedDocument>{};
  const auto* documents = request.get_object().if_contains("documents");
  if (documents == nullptr) return std::vector<UploadedDocument>{};
  const std::vector<std::string> ids = DocumentIdsNamedBy(*documents);
  if (ids.empty()) return std::vector<UploadedDocument>{};
  return find_uploads_(caller.organization_id, ids);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::Create(
    const TemplateCaller& caller, const boost::json::value& request,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  std::string id = ids_.Next("tpl_");
  auto uploads = UploadsNamedBy(caller, request);
  if (!uploads) return std::unexpected(uploads.error());
  // Checked before anything is written, an Idempotency-Key's reservation included.
  auto parsed = ParseTemplateRequest(
      request, id, [this] { return ids_.Next("tv_"); }, *uploads);
  if (!parsed) return std::unexpected(parsed.error());
  parsed->organization_id = caller.organization_id;
  Template created = std::move(*parsed);
  Decide decide = [&created](const std::optional<Template>& existing,
                             const std::string& template_id) -> Result<std::vector<NewEvent>> {
    if (existing) return Fail(ErrorCode::kStreamVersionConflict, "the template id is taken");
    Template tmpl = created;
    tmpl.template_id = template_id;
    std::vector<NewEvent> events{{template_event::kCreated, WriteTemplateCreated(tmpl)}};
    for (const TemplateVersion& version : tmpl.versions) {
      events.push_back({template_event::kVersionAdded, WriteTemplateVersionAdded(tmpl, version)});
    }
    if (const TemplateVersion* published = tmpl.PublishedVersion()) {
      events.push_back({template_event::kPublished,
                        WriteTemplatePublished(tmpl, published->template_version_id)});
    }
    return events;
  };
  return Run(caller, id, /*creating=*/true, decide, idempotency);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::AddVersion(
    const TemplateCaller& caller, std::string_view template_id, const boost::json::value& request,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  auto current = LoadWritable(caller, template_id);
  if (!current) return std::unexpected(current.error());
  if (Status open = NotArchived(*current->tmpl); !open) return std::unexpected(open.error());
  auto uploads = UploadsNamedBy(caller, request);
  if (!uploads) return std::unexpected(uploads.error());
  auto parsed = ParseTemplateVersionRequest(request, ids_.Next("tv_"), *uploads);
  if (!parsed) return std::unexpected(parsed.error());
  const TemplateVersion version = std::move(*parsed);
  Decide decide = [&version, &caller](const std::optional<Template>& tmpl,
                                      const std::string& id) -> Result<std::vector<NewEvent>> {
    if (Status writable = Writable(tmpl, caller, id); !writable) {
      return std::unexpected(writable.error());
    }
    if (Status open = NotArchived(*tmpl); !open) return std::unexpected(open.error());
    if (tmpl->versions.size() >= kMaxVersionsPerTemplate) {
      const std::string limit = std::to_string(kMaxVersionsPerTemplate);
      return Fail(ErrorCode::kValidationFailed,
                  "template " + id + " has " + limit + " versions, the most it may have", "body",
                  "at most " + limit + " versions per template");
    }
    std::vector<NewEvent> events{
        {template_event::kVersionAdded, WriteTemplateVersionAdded(*tmpl, version)}};
    // Every reader keeps the whole template in memory: its size is bounded, not only its count.
    if (boost::json::serialize(TemplateToJson(*tmpl)).size() + events.front().data.size() >
        kMaxTemplateBytes) {
      const std::string limit = std::to_string(kMaxTemplateBytes);
      return Fail(ErrorCode::kValidationFailed,
                  "template " + id + " would be larger than " + limit + " bytes", "body",
                  "at most " + limit + " bytes of JSON per template, its versions included");
    }
    if (version.published) {
      events.push_back(
          {template_event::kPublished, WriteTemplatePublished(*tmpl, version.template_version_id)});
    }
    return events;
  };
  return Run(caller, std::string(template_id), /*creating=*/false, decide, idempotency);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::Publish(
    const TemplateCaller& caller, std::string_view template_id,
    std::string_view template_version_id,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  const std::string version_id(template_version_id);
  Decide decide = [&version_id, &caller](const std::optional<Template>& tmpl,
                                         const std::string& id) -> Result<std::vector<NewEvent>> {
    if (Status writable = Writable(tmpl, caller, id); !writable) {
      return std::unexpected(writable.error());
    }
    const TemplateVersion* version = tmpl->FindVersion(version_id);
    if (version == nullptr) {
      return Fail(ErrorCode::kTemplateVersionNotFound,
                  "template " + id + " has no version " + version_id, "templateVersionId",
                  version_id);
    }
    if (Status open = NotArchived(*tmpl); !open) return std::unexpected(open.error());
    if (version->published) return std::vector<NewEvent>{};
    return std::vector<NewEvent>{
        {template_event::kPublished, WriteTemplatePublished(*tmpl, version_id)}};
  };
  return Run(caller, std::string(template_id), /*creating=*/false, decide, idempotency);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::Archive(
    const TemplateCaller& caller, std::string_view template_id,
    const std::optional<eventstore::IdempotentRequest>& idempotency) {
  Decide decide = [&caller](const std::optional<Template>& tmpl,
                            const std::string& id) -> Result<std::vector<NewEvent>> {
    if (Status writable = Writable(tmpl, caller, id); !writable) {
      return std::unexpected(writable.error());
    }
    if (tmpl->archived) return std::vector<NewEvent>{};
    return std::vector<NewEvent>{{template_event::kArchived, WriteTemplateArchived(*tmpl)}};
  };
  return Run(caller, std::string(template_id), /*creating=*/false, decide, idempotency);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::Run(
    const TemplateCaller& caller, const std::string& template_id, bool creating,
    const Decide& decide, const std::optional<eventstore::IdempotentRequest>& idempotency) {
  if (!idempotency) {
    auto appended = DecideAndAppend(caller, template_id, creating, decide, nullptr);
    if (!appended) return std::unexpected(appended.error());
    return OutcomeAt(template_id, appended->version, appended->first_event_id);
  }
  if (!creating) {
    // A refused request reserves no key: decided once on the template as it is, before.
    auto loaded = Load(template_id);
    if (!loaded) return std::unexpected(loaded.error());
    if (auto decided = decide(loaded->tmpl, template_id); !decided) {
      return std::unexpected(decided.error());
    }
  }
  std::lock_guard lock(idempotent_);
  auto reservation =
      eventstore::ReserveIdempotencyKey(store_, *idempotency, "templateId", template_id);
  if (!reservation) return std::unexpected(reservation.error());
  const eventstore::IdempotencyReservation& r = *reservation;
  const std::string first_event_id = eventstore::SeededEventId(r, 0);
  std::optional<uint64_t> done = r.completed_version;
  if (!done) {
    // Appended before a crash kept the key from being completed: the events are there.
    auto seeded = eventstore::FindSeededVersion(store_, TemplateStreamId(r.resource_id), r);
    if (!seeded) return std::unexpected(seeded.error());
    done = *seeded;
  }
  uint64_t version = 0;
  if (done) {
    version = *done;
  } else {
    auto appended = DecideAndAppend(caller, r.resource_id, creating, decide, &r);
    if (!appended) return std::unexpected(appended.error());
    version = appended->version;
  }
  if (!r.completed_version) {
    if (Status completed = eventstore::CompleteIdempotencyKey(store_, r, version, caller.actor);
        !completed) {
      return std::unexpected(completed.error());
    }
  }
  auto outcome = OutcomeAt(r.resource_id, version, first_event_id);
  if (outcome && done) outcome->replayed = true;
  return outcome;
}

Result<OrganizationTemplates::Appended> OrganizationTemplates::DecideAndAppend(
    const TemplateCaller& caller, const std::string& template_id, bool creating,
    const Decide& decide, const eventstore::IdempotencyReservation* seed) {
  std::unique_lock<std::mutex> one_creation(creating_, std::defer_lock);
  if (creating) {
    one_creation.lock();
    auto counts = counter_(caller.organization_id);
    if (!counts) return std::unexpected(counts.error());
    if (Status within = WithinLimits(*counts); !within) return std::unexpected(within.error());
  }
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto loaded = Load(template_id);
    if (!loaded) return std::unexpected(loaded.error());
    auto decided = decide(loaded->tmpl, template_id);
    if (!decided) return std::unexpected(decided.error());
    if (decided->empty()) return Appended{loaded->version, ""};
    std::vector<eventstore::NewEvent> events;
    for (size_t i = 0; i < decided->size(); ++i) {
      std::string event_id = seed ? eventstore::SeededEventId(*seed, i) : ids_.Next("evt_");
      events.push_back({std::move(event_id), std::string((*decided)[i].type), 1,
                        std::move((*decided)[i].data), caller.actor});
    }
    const std::string first_event_id = events.front().event_id;
    const auto expected =
        loaded->version == 0 ? eventstore::ExpectedVersion::NoStream()
                             : eventstore::ExpectedVersion::Exactly(StreamVersion(loaded->version));
    auto appended = store_.Append(TemplateStreamId(template_id), expected, std::move(events));
    if (!appended) {
      if (appended.error().code == ErrorCode::kStreamVersionConflict) continue;
      return std::unexpected(appended.error());
    }
    if (after_write_) {
      if (Status shown = after_write_(caller.actor.client_id,
                                      appended->first_position.value() + appended->count);
          !shown) {
        return std::unexpected(shown.error());
      }
    }
    return Appended{appended->version.value(), first_event_id};
  }
  return Fail(ErrorCode::kStreamVersionConflict,
              "template " + template_id + " kept changing; try again", "id", template_id);
}

Result<OrganizationTemplates::Outcome> OrganizationTemplates::OutcomeAt(
    const std::string& template_id, uint64_t version, std::string_view first_event_id) const {
  auto loaded = Load(template_id, version);
  if (!loaded) return std::unexpected(loaded.error());
  if (!loaded->tmpl) return TemplateNotFound(template_id);
  Outcome outcome{std::move(*loaded->tmpl)};
  for (const auto& event : loaded->events) {
    if (event.event_id != first_event_id) continue;
    if (auto added = event_codec::AsText<TemplateVersionAddedData>(event.type, event.data)) {
      outcome.template_version_id = StringMemberOrEmpty(added->version, "templateVersionId");
    }
  }
  return outcome;
}

}  // namespace esign::commands
