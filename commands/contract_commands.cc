#include "commands/contract_commands.h"

#include <boost/json.hpp>

#include "base/time_text.h"
#include "commands/due_timers.h"
#include "commands/organization_commands.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/placed_field_rules.h"
#include "domain/signer_authentication.h"
#include "domain/stream_kinds.h"
#include "eventstore/domain_events.h"
#include "eventstore/idempotency_keys.h"

namespace esign::commands {
namespace {

constexpr int kMaxAttempts = 5;

size_t ParticipantCount(const Command& command) {
  const boost::json::value* participants = nullptr;
  if (const auto* create = std::get_if<CreateContract>(&command)) {
    participants = &create->participants;
  } else if (const auto* replace = std::get_if<ReplaceParticipants>(&command)) {
    participants = &replace->participants;
  }
  return participants && participants->is_array() ? participants->as_array().size() : 0;
}

// A PersistEvidence decided before its bundle is stored.
bool AwaitsEvidence(const std::vector<DomainEvent>& events) {
  for (const auto& event : events) {
    const auto persisted = event_codec::As<EvidencePersistedData>(event.type, event.data);
    if (persisted && persisted->sha256.empty()) return true;
  }
  return false;
}

bool Prepares(const std::vector<DomainEvent>& events) {
  for (const auto& event : events) {
    if (event.type == event_type::kContractPrepared) return true;
  }
  return false;
}

std::string TemplateIdOf(const Command& command, const ContractState& state) {
  if (const auto* create = std::get_if<CreateContract>(&command)) {
    return create->template_id.is_string() ? std::string(create->template_id.as_string()) : "";
  }
  return state.template_id;
}

// The API client a write is recorded for (projections/read_your_writes.h). A signer and the
// service itself act for no organization: none, so every client of the contract's organization
// reads what they wrote.
std::string_view WritingClient(const esign::Actor& actor) {
  return actor.organization_id.empty() ? std::string_view{} : std::string_view(actor.client_id);
}

}  // namespace

Status WithinStreamBounds(uint64_t version, uint64_t bytes,
                          const std::vector<eventstore::NewEvent>& events) {
  uint64_t added = 0;
  for (const eventstore::NewEvent& event : events) added += event.data.size();
  if (version + events.size() <= kMaxContractStreamEvents &&
      bytes + added <= kMaxContractStreamBytes) {
    return {};
  }
  return Fail(ErrorCode::kContractStateConflict,
              "a contract holds at most " + std::to_string(kMaxContractStreamEvents) +
                  " events and " + std::to_string(kMaxContractStreamBytes) +
                  " bytes of event data; it holds " + std::to_string(version) + " events and " +
                  std::to_string(bytes) + " bytes",
              "stream", "limit reached");
}

ContractCommandHandler::ContractCommandHandler(eventstore::EventStore& store,
                                               TemplateLookup templates, RecordWrite record_write,
                                               IdGenerator& ids, const Clock& clock,
                                               projections::ContractStateCacheOptions cache)
    : store_(store),
      states_(std::make_unique<projections::ContractStateCache>(store, cache)),
      templates_(std::move(templates)),
      record_write_(std::move(record_write)),
      ids_(ids),
      clock_(clock) {}

Result<ContractState> ContractCommandHandler::Load(const std::string& contract_id,
                                                   uint64_t version) const {
  auto loaded = LoadSnapshot(contract_id, version);
  if (!loaded) return std::unexpected(loaded.error());
  return std::move(loaded->state);
}

Result<projections::ContractSnapshot> ContractCommandHandler::LoadSnapshot(
    const std::string& contract_id, uint64_t version) const {
  auto loaded =
      version == 0 ? states_->Latest(contract_id) : states_->AtVersion(contract_id, version);
  if (!loaded) {
    if (loaded.error().code == ErrorCode::kNotFound) return ContractNotFound();
    return std::unexpected(loaded.error());
  }
  if (!loaded->state.exists()) return ContractNotFound();
  return loaded;
}

Result<CommandOutcome> ContractCommandHandler::Create(const esign::Actor& actor,
                                                      CreateContract command,
                                                      const CommandMeta& meta) {
  return Run(actor, ids_.Next("ctr_"), /*creating=*/true, Command(std::move(command)), meta);
}

Result<CommandOutcome> ContractCommandHandler::Execute(const esign::Actor& actor,
                                                       const std::string& contract_id,
                                                       const Command& command,
                                                       const CommandMeta& meta) {
  return Run(actor, contract_id, /*creating=*/false, command, meta);
}

Result<CommandOutcome> ContractCommandHandler::Run(const esign::Actor& actor,
                                                   const std::string& contract_id, bool creating,
                                                   const Command& command,
                                                   const CommandMeta& meta) {
  if (!meta.idempotency_key) {
    return DecideAndAppend(actor, contract_id, creating, command, meta, nullptr);
  }
  if (!creating) {
    // A key is reserved only on a contract the caller controls (every command that takes a key
    // needs control): a request refused so writes nothing.
    auto state = Load(contract_id);
    if (!state) return std::unexpected(state.error());
    if (state->organization_id != actor.organization_id) return ContractNotFound();
  }
  auto reservation = eventstore::ReserveIdempotencyKey(
      store_, {actor.client_id, *meta.idempotency_key, meta.request_sha256, meta.actor},
      "contractId", contract_id);
  if (!reservation) return std::unexpected(reservation.error());
  const eventstore::IdempotencyReservation& r = *reservation;
  if (r.completed_version) {
    auto state = Load(r.resource_id, *r.completed_version);
    if (!state) return std::unexpected(state.error());
    return CommandOutcome{std::move(*state), /*replayed=*/true};
  }

  auto outcome = DecideAndAppend(actor, r.resource_id, creating, command, meta, &r);
  if (!outcome) {
    // A retry after a crash between the append and the outcome record: the command's events
    // are already in the contract's stream under ids derived from the key.
    auto done_at = eventstore::FindSeededVersion(store_, ContractStreamId(r.resource_id), r);
    if (!done_at || !*done_at) return outcome;
    auto state = Load(r.resource_id, **done_at);
    if (!state) return std::unexpected(state.error());
    outcome = CommandOutcome{std::move(*state), /*replayed=*/true};
  }
  if (auto completed =
          eventstore::CompleteIdempotencyKey(store_, r, outcome->state.version, meta.actor);
      !completed) {
    return std::unexpected(completed.error());
  }
  return outcome;
}

Result<std::vector<UploadedDocument>> ContractCommandHandler::UploadsNamedBy(
    const Command& command, const esign::Actor& actor) const {
  const auto* create = std::get_if<CreateContract>(&command);
  if (create == nullptr) return std::vector<UploadedDocument>{};
  // More than the limit is refused by the decision; only the ids it will read are looked up.
  const std::vector<std::string> ids = DocumentIdsNamedBy(create->documents);
  if (ids.empty()) return std::vector<UploadedDocument>{};
  if (!find_uploads_) return std::vector<UploadedDocument>{};
  // An id not found is left out: the decision says so, with its path in the request.
  return find_uploads_(actor.organization_id, ids);
}

Result<ContractCommandHandler::Decision> ContractCommandHandler::DecideWithFollowUps(
    const esign::Actor& actor, const std::string& contract_id, bool creating,
    const Command& command, const CommandMeta& meta) {
  Decision decision;
  ContractState& state = decision.before;
  if (!creating) {
    auto loaded = LoadSnapshot(contract_id);
    if (!loaded) return std::unexpected(loaded.error());
    state = std::move(loaded->state);
    decision.stream_bytes = loaded->stream_bytes;
    // Another organization's contract is not there for it: not its version either.
    if (meta.if_match && state.organization_id != actor.organization_id) {
      return ContractNotFound();
    }
    if (meta.if_match && state.version != *meta.if_match) {
      return Fail(ErrorCode::kPreconditionFailed,
                  "the contract is at version " + std::to_string(state.version) +
                      ", If-Match names " + std::to_string(*meta.if_match),
                  "If-Match", "stale version");
    }
  }
  const std::string template_id = TemplateIdOf(command, state);
  std::shared_ptr<const Template> tmpl = template_id.empty() ? nullptr : templates_(template_id);
  // A new contract starts only from a template its organization sees; existing contracts keep
  // theirs, whatever has become of it.
  if (creating && tmpl && !tmpl->VisibleTo(actor.organization_id)) tmpl = nullptr;

  DecisionContext context;
  context.actor = actor;
  context.tmpl = tmpl.get();
  context.now = FormatTimestamp(clock_.NowMicros());
  context.contract_id = contract_id;
  for (size_t i = 0, n = ParticipantCount(command); i < n; ++i) {
    context.participant_ids.push_back(ids_.Next("prt_"));
  }
  // A contract from uploads stands on implicit roles instead of a template version.
  TemplateVersion uploads_version;
  if (state.from_uploads()) {
    uploads_version = UploadsTemplateVersion(state);
    context.template_version = &uploads_version;
  }
  if (auto uploads = UploadsNamedBy(command, actor); !uploads) {
    return std::unexpected(uploads.error());
  } else {
    context.uploads = std::move(*uploads);
  }
  auto decided = Decide(state, command, context);
  if (!decided) return std::unexpected(decided.error());
  if (creating && tmpl && tmpl->archived) {
    return Fail(ErrorCode::kTemplateArchived, "template " + template_id + " is archived",
                "templateId", "archived");
  }
  if (Prepares(*decided)) {
    // The organization's name as it stands now goes into contract.prepared, so the frozen PDF
    // and the certificate keep saying it after a rename. The document is rendered from the state
    // the preparation leads to, then the decision is taken again with its hash and the boxes
    // where it drew them: same context, same ids, so the same events plus those.
    auto contact = ReadOrganizationContact(store_, state.organization_id);
    if (!contact) return std::unexpected(contact.error());
    context.organization_name = contact->name;
    decided = Decide(state, command, context);
    if (!decided) return std::unexpected(decided.error());
    if (freeze_document_) {
      ContractState prepared = state;
      for (const auto& event : *decided) prepared = Apply(std::move(prepared), event);
      auto frozen = freeze_document_(prepared);
      if (!frozen) return std::unexpected(frozen.error());
      context.rendered_document_sha256 = std::move(frozen->sha256);
      context.signature_placements = std::move(frozen->signature_placements);
      decided = Decide(state, command, context);
      if (!decided) return std::unexpected(decided.error());
    }
  }

  if (AwaitsEvidence(*decided)) {
    // Stored only now that the command is accepted: a refused request writes nothing.
    if (!store_evidence_) return Fail(ErrorCode::kInternal, "evidence cannot be stored here");
    auto sha256 = store_evidence_(state);
    if (!sha256) return std::unexpected(sha256.error());
    context.stored_evidence_sha256 = *sha256;
    decided = Decide(state, command, context);
    if (!decided) return std::unexpected(decided.error());
  }

  // The log never holds an access code, only its keyed hash.
  if (auto ok = HashAccessCodes(*decided, signer_secrets_); !ok) {
    return std::unexpected(ok.error());
  }
  decision.after = state;
  for (const auto& event : *decided) decision.after = Apply(std::move(decision.after), event);
  auto follow_ups = FollowUps(decision.after, *decided, context, meta.actor);
  if (!follow_ups) return std::unexpected(follow_ups.error());
  decided->insert(decided->end(), std::make_move_iterator(follow_ups->begin()),
                  std::make_move_iterator(follow_ups->end()));
  decision.events = std::move(*decided);
  return decision;
}

std::vector<eventstore::NewEvent> ContractCommandHandler::NewEvents(
    const std::string& contract_id, const Command& command, const std::vector<DomainEvent>& decided,
    const CommandMeta& meta, const eventstore::IdempotencyReservation* seed) {
  std::vector<std::string> event_ids = EventIds(contract_id, command, decided, seed);
  std::vector<eventstore::NewEvent> events;
  events.reserve(decided.size());
  for (size_t i = 0; i < decided.size(); ++i) {
    events.push_back(eventstore::ToNewEvent(decided[i], std::move(event_ids[i]), meta.actor));
  }
  return events;
}

Result<CommandOutcome> ContractCommandHandler::DecideAndAppend(
    const esign::Actor& actor, const std::string& contract_id, bool creating,
    const Command& command, const CommandMeta& meta,
    const eventstore::IdempotencyReservation* seed) {
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto decision = DecideWithFollowUps(actor, contract_id, creating, command, meta);
    if (!decision) return std::unexpected(decision.error());
    if (decision->events.empty()) return CommandOutcome{std::move(decision->before), false};
    const auto expected =
        creating ? eventstore::ExpectedVersion::NoStream()
                 : eventstore::ExpectedVersion::Exactly(StreamVersion(decision->before.version));
    std::vector<eventstore::NewEvent> events =
        NewEvents(contract_id, command, decision->events, meta, seed);
    if (auto bounded = WithinStreamBounds(decision->before.version, decision->stream_bytes, events);
        !bounded) {
      return std::unexpected(bounded.error());
    }
    const auto append_started = std::chrono::steady_clock::now();
    auto appended = store_.Append(ContractStreamId(contract_id), expected, std::move(events));
    if (observe_append_) observe_append_(std::chrono::steady_clock::now() - append_started);
    if (!appended) {
      if (appended.error().code != ErrorCode::kStreamVersionConflict) {
        return std::unexpected(appended.error());
      }
      if (meta.if_match) {
        return Fail(ErrorCode::kPreconditionFailed, "the contract changed meanwhile", "If-Match",
                    "stale version");
      }
      continue;  // another writer got there first: decide again on the new state
    }
    record_write_(WritingClient(actor), decision->after.organization_id,
                  appended->first_position.value() + appended->count);
    if (appended->replayed) {
      auto replayed = Load(contract_id, appended->version.value());
      if (!replayed) return std::unexpected(replayed.error());
      return CommandOutcome{std::move(*replayed), true};
    }
    NotifyProviderSessions(decision->after, decision->events);
    return CommandOutcome{std::move(decision->after), false, true};
  }
  return Fail(ErrorCode::kUnavailable, "the contract is changing too fast; retry");
}

std::vector<std::string> ContractCommandHandler::EventIds(
    const std::string& contract_id, const Command& command, const std::vector<DomainEvent>& events,
    const eventstore::IdempotencyReservation* seed) {
  std::vector<std::string> out;
  out.reserve(events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    if (std::holds_alternative<RunDueTimers>(command)) {
      out.push_back(DueTimerEventId(contract_id, events[i]));
    } else {
      out.push_back(seed == nullptr ? ids_.Next("evt_") : eventstore::SeededEventId(*seed, i));
    }
  }
  return out;
}

}  // namespace esign::commands
