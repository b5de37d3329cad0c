#include "commands/contract_commands.h"

#include <boost/json.hpp>

#include "eventstore/domain_events.h"
#include "eventstore/merkle.h"

namespace esign::commands {
namespace {

constexpr int kMaxAttempts = 5;
constexpr size_t kMaxStreamEvents = 100000;
constexpr std::string_view kReserved = "idempotency.reserved";
constexpr std::string_view kCompleted = "idempotency.completed";

size_t ParticipantCount(const Command& command) {
  const boost::json::value* participants = nullptr;
  if (const auto* create = std::get_if<CreateContract>(&command)) {
    participants = &create->participants;
  } else if (const auto* replace = std::get_if<ReplaceParticipants>(&command)) {
    participants = &replace->participants;
  }
  return participants && participants->is_array() ? participants->as_array().size() : 0;
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

}  // namespace

struct ContractCommandHandler::Reservation {
  std::string stream;
  std::string contract_id;
  std::optional<uint64_t> completed_version;
};

ContractCommandHandler::ContractCommandHandler(eventstore::EventStore& store,
                                               TemplateLookup templates, RecordWrite record_write,
                                               IdGenerator& ids, const Clock& clock)
    : store_(store),
      templates_(std::move(templates)),
      record_write_(std::move(record_write)),
      ids_(ids),
      clock_(clock) {}

Result<ContractState> ContractCommandHandler::Load(const std::string& contract_id,
                                                   uint64_t version) const {
  auto records = store_.ReadStream(eventstore::ContractStreamId(contract_id), StreamVersion(1),
                                   version == 0 ? kMaxStreamEvents : version);
  if (!records) return std::unexpected(records.error());
  auto events = eventstore::ToDomainEvents(*records);
  if (!events) return std::unexpected(events.error());
  ContractState state = Replay(*events);
  if (!state.exists()) {
    return Fail(ErrorCode::kContractNotFound, "no contract " + contract_id, "id", contract_id);
  }
  return state;
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
    return DecideAndAppend(actor, contract_id, creating, command, meta, "");
  }
  auto reservation = Reserve(actor, contract_id, meta);
  if (!reservation) return std::unexpected(reservation.error());
  const Reservation& r = **reservation;
  if (r.completed_version) {
    auto state = Load(r.contract_id, *r.completed_version);
    if (!state) return std::unexpected(state.error());
    return CommandOutcome{std::move(*state), /*replayed=*/true};
  }

  auto outcome = DecideAndAppend(actor, r.contract_id, creating, command, meta, r.stream);
  if (!outcome) {
    // A retry after a crash between the append and the outcome record: the command's events
    // are already in the contract's stream under ids derived from the key.
    auto records = store_.ReadStream(eventstore::ContractStreamId(r.contract_id), StreamVersion(1),
                                     kMaxStreamEvents);
    if (!records) return std::unexpected(outcome.error());
    std::optional<uint64_t> done_at;
    for (const auto& record : *records) {
      if (record.event_id.starts_with(r.stream + "-")) done_at = record.version.value();
    }
    if (!done_at) return outcome;
    auto state = Load(r.contract_id, *done_at);
    if (!state) return std::unexpected(state.error());
    outcome = CommandOutcome{std::move(*state), /*replayed=*/true};
  }
  eventstore::NewEvent completed;
  completed.event_id = r.stream + "-completed";
  completed.type = std::string(kCompleted);
  completed.data = boost::json::serialize(boost::json::object{{"version", outcome->state.version}});
  completed.actor = meta.actor;
  auto recorded = store_.Append(r.stream, eventstore::ExpectedVersion::Any(), {completed});
  if (!recorded) return std::unexpected(recorded.error());
  return outcome;
}

Result<std::optional<ContractCommandHandler::Reservation>> ContractCommandHandler::Reserve(
    const esign::Actor& actor, const std::string& contract_id, const CommandMeta& meta) {
  const std::string key_hash =
      eventstore::ToHex(eventstore::Sha256(actor.client_id + "\n" + *meta.idempotency_key));
  Reservation reservation{"idempotency-" + key_hash.substr(0, 40), contract_id, std::nullopt};
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto records = store_.ReadStream(reservation.stream, StreamVersion(1), 16);
    if (!records) return std::unexpected(records.error());
    if (!records->empty()) {
      auto first = eventstore::ToDomainEvent(records->front());
      if (!first) return std::unexpected(first.error());
      const auto& data = first->data;
      if (data.at("requestSha256").as_string() != meta.request_sha256) {
        return Fail(ErrorCode::kIdempotencyKeyReused,
                    "this Idempotency-Key was used with another request", "Idempotency-Key",
                    "already used with a different body or operation");
      }
      reservation.contract_id = std::string(data.at("contractId").as_string());
      for (const auto& record : *records) {
        if (record.type != kCompleted) continue;
        auto done = eventstore::ToDomainEvent(record);
        if (!done) return std::unexpected(done.error());
        reservation.completed_version = done->data.at("version").to_number<uint64_t>();
      }
      return reservation;
    }
    eventstore::NewEvent reserved;
    reserved.event_id = reservation.stream + "-reserved";
    reserved.type = std::string(kReserved);
    reserved.data = boost::json::serialize(
        boost::json::object{{"requestSha256", meta.request_sha256}, {"contractId", contract_id}});
    reserved.actor = meta.actor;
    auto appended =
        store_.Append(reservation.stream, eventstore::ExpectedVersion::NoStream(), {reserved});
    if (appended) {
      if (!appended->replayed) return reservation;
      continue;  // written by an earlier attempt of this very request: read it back
    }
    if (appended.error().code != ErrorCode::kStreamVersionConflict) {
      return std::unexpected(appended.error());
    }
    // Another request with the same key won the race: read what it reserved.
  }
  return Fail(ErrorCode::kUnavailable, "could not reserve the Idempotency-Key");
}

Result<CommandOutcome> ContractCommandHandler::DecideAndAppend(
    const esign::Actor& actor, const std::string& contract_id, bool creating,
    const Command& command, const CommandMeta& meta, const std::string& event_id_seed) {
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    ContractState state;
    if (!creating) {
      auto loaded = Load(contract_id);
      if (!loaded) return std::unexpected(loaded.error());
      state = std::move(*loaded);
      if (meta.if_match && state.version != *meta.if_match) {
        return Fail(ErrorCode::kPreconditionFailed,
                    "the contract is at version " + std::to_string(state.version) +
                        ", If-Match names " + std::to_string(*meta.if_match),
                    "If-Match", "stale version");
      }
    }
    const std::string template_id = TemplateIdOf(command, state);
    std::shared_ptr<const Template> tmpl = template_id.empty() ? nullptr : templates_(template_id);

    DecisionContext context;
    context.actor = actor;
    context.tmpl = tmpl.get();
    context.now = eventstore::FormatTimestamp(clock_.NowMicros());
    context.contract_id = contract_id;
    for (size_t i = 0, n = ParticipantCount(command); i < n; ++i) {
      context.participant_ids.push_back(ids_.Next("prt_"));
    }
    auto decided = Decide(state, command, context);
    if (!decided) return std::unexpected(decided.error());
    if (freeze_document_ && Prepares(*decided)) {
      // The document is rendered from the state the preparation leads to, then the decision is
      // taken again with its hash: same context, same ids, so the same events plus the hash.
      ContractState prepared = state;
      for (const auto& event : *decided) prepared = Apply(std::move(prepared), event);
      auto sha256 = freeze_document_(prepared);
      if (!sha256) return std::unexpected(sha256.error());
      context.rendered_document_sha256 = *sha256;
      decided = Decide(state, command, context);
      if (!decided) return std::unexpected(decided.error());
    }

    auto follow_ups = FollowUps(state, *decided, context);
    if (!follow_ups) return std::unexpected(follow_ups.error());
    decided->insert(decided->end(), std::make_move_iterator(follow_ups->begin()),
                    std::make_move_iterator(follow_ups->end()));

    std::vector<eventstore::NewEvent> events;
    events.reserve(decided->size());
    for (size_t i = 0; i < decided->size(); ++i) {
      std::string event_id =
          event_id_seed.empty() ? ids_.Next("evt_") : event_id_seed + "-" + std::to_string(i);
      events.push_back(eventstore::ToNewEvent((*decided)[i], std::move(event_id), meta.actor));
    }
    const auto expected = creating
                              ? eventstore::ExpectedVersion::NoStream()
                              : eventstore::ExpectedVersion::Exactly(StreamVersion(state.version));
    const auto append_started = std::chrono::steady_clock::now();
    auto appended =
        store_.Append(eventstore::ContractStreamId(contract_id), expected, std::move(events));
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
    record_write_(actor.client_id, appended->first_position.value() + appended->count);
    if (appended->replayed) {
      auto replayed = Load(contract_id, appended->version.value());
      if (!replayed) return std::unexpected(replayed.error());
      return CommandOutcome{std::move(*replayed), true};
    }
    for (const auto& event : *decided) state = Apply(std::move(state), event);
    NotifyProviderSessions(state, *decided);
    return CommandOutcome{std::move(state), false};
  }
  return Fail(ErrorCode::kUnavailable, "the contract is changing too fast; retry");
}

}  // namespace esign::commands
