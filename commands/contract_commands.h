// The contract command handler: loads a contract by replaying its stream, lets the domain decide,
// appends the events with optimistic concurrency, and reports each append with its client so that
// the client's next read waits for the read side to show it (read-your-writes). A concurrent writer
// costs a retry, not an error, unless the caller pinned a version with If-Match (then
// kPreconditionFailed).
//
// Idempotency-Key (POST create and send): the key is reserved for the contract
// (eventstore/idempotency_keys.h); the command's events then get ids derived from the key, so a
// retry after a crash replays the append instead of repeating it; finally the outcome (the
// contract version) is recorded. A later request with the same key and body gets the contract as
// it was at that version; with another body, kIdempotencyKeyReused.
//
// A command that decides no events (RunDueTimers with nothing due) appends nothing and answers
// the contract as it is.
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "commands/record_write.h"
#include "documents/contract_documents.h"
#include "domain/clock.h"
#include "domain/contract.h"
#include "domain/id_generator.h"
#include "domain/result.h"
#include "domain/signer_secrets.h"
#include "eventstore/event_store.h"
#include "eventstore/idempotency_keys.h"
#include "projections/contract_state_cache.h"
#include "projections/template_catalog.h"

namespace esign::commands {

using projections::TemplateLookup;
// Renders the unsigned PDF of a contract as sending freezes it, stores it, and returns its
// SHA-256 (hex) and where it drew the signature boxes, which contract.prepared records.
using FreezeDocument = std::function<Result<FrozenDocument>(const ContractState& prepared)>;
// Builds the evidence bundle of a contract as it stands, stores it, and returns its SHA-256
// (hex), which contract.evidence_persisted records.
using StoreEvidence = std::function<Result<std::string>(const ContractState& state)>;

// Builds the signed PDF of a contract whose every signer has signed (each signature drawn, the
// completion certificate added, the service's seal applied), stores it and the signed contract
// pages, and returns both keys. `completion`: the events decided with the last signature, not yet
// appended, and who causes them.
using SealDocument = std::function<Result<documents::SealedDocument>(
    const ContractState& all_signed, const documents::Completion& completion)>;
// The signing provider of an organization signer (its providerConfigRef, else the only one
// configured); empty when there is none.
using ResolveProvider = std::function<std::string(const Participant& signer)>;
// Told of every provider_managed session once its creation is durable, to start the provider;
// and of every open one once the void or expiry of its contract is durable, to stop it.
using ProviderSessionStarted =
    std::function<void(const ContractState& state, const SigningSession& session)>;
using ProviderSessionEnded =
    std::function<void(const ContractState& state, const SigningSession& session)>;

struct CommandMeta {
  eventstore::Actor actor;           // recorded with every event
  std::optional<uint64_t> if_match;  // expected contract version (If-Match)
  std::optional<std::string> idempotency_key;
  std::string request_sha256;  // of the request body, for idempotency
};

struct CommandOutcome {
  ContractState state;
  bool replayed = false;  // answered from an earlier request with the same Idempotency-Key
  bool appended = false;  // this call appended events (not a replay, not a decision of none)
};

// The participant's open platform_hosted session whose link the service mailed (its token is
// derived by `secrets`), the newest; null when none.
const SigningSession* MailedSession(const ContractState& state, std::string_view participant_id,
                                    std::string_view now, const SignerSecrets& secrets);

// Whether a contract stream at `version` holding `bytes` of event data may take `events`: the
// limits every reader of a contract relies on (domain/contract_commands.h,
// kMaxContractStreamEvents and kMaxContractStreamBytes). kContractStateConflict on "stream".
Status WithinStreamBounds(uint64_t version, uint64_t bytes,
                          const std::vector<eventstore::NewEvent>& events);

class ContractCommandHandler {
 public:
  ContractCommandHandler(eventstore::EventStore& store, TemplateLookup templates,
                         RecordWrite record_write, IdGenerator& ids, const Clock& clock,
                         projections::ContractStateCacheOptions cache = {});

  Result<CommandOutcome> Create(const esign::Actor& actor, CreateContract command,
                                const CommandMeta& meta);
  // Create without holding the calling thread while the append is synced: `done` is told exactly
  // what Create would return, at once when the command is refused, otherwise on the event store's
  // thread once the append is durable (eventstore AppendAsync), so it must be short and must not
  // block. `before_append`, when set, is shown the contract as the append will leave it, on the
  // calling thread before the append, so the caller can prepare its answer there rather than on
  // the store's thread. With an Idempotency-Key this runs Create on the calling thread (the key's
  // reservation and outcome are appends of their own) and tells `done` only.
  void CreateAsync(const esign::Actor& actor, CreateContract command, const CommandMeta& meta,
                   const std::function<void(const ContractState& created)>& before_append,
                   std::function<void(Result<CommandOutcome>)> done);
  // Every other integrator command on an existing contract.
  Result<CommandOutcome> Execute(const esign::Actor& actor, const std::string& contract_id,
                                 const Command& command, const CommandMeta& meta);

  // Sending renders and stores the document when set; set before use.
  void SetFreezeDocument(FreezeDocument freeze) { freeze_document_ = std::move(freeze); }
  // Creating a contract from uploads finds them through this; without it such a create answers
  // kDocumentNotFound. Set before use.
  void SetFindUploads(FindUploads find) { find_uploads_ = std::move(find); }
  // PersistEvidence without a hash stores the bundle through this, once decided; set before use.
  void SetStoreEvidence(StoreEvidence store) { store_evidence_ = std::move(store); }

  // Completing needs the signed PDF; without it the contract stays at "every signer signed".
  void SetSealDocument(SealDocument seal) { seal_document_ = std::move(seal); }
  // Automatic mode: organization signers get their provider session as soon as their turn comes,
  // in the same append as the event that brings it.
  void SetProviders(ResolveProvider resolve, ProviderSessionStarted started,
                    ProviderSessionEnded ended = {}) {
    resolve_provider_ = std::move(resolve);
    provider_session_started_ = std::move(started);
    provider_session_ended_ = std::move(ended);
  }

  // Derives the secrets mailed to signers and keeps access codes hashed (signer_secrets.h);
  // without it no hosted session is created for e-mail and access codes are refused.
  void SetSignerSecrets(const SignerSecrets* secrets) { signer_secrets_ = secrets; }
  // Called with the duration of every append (for metrics); set before use.
  void SetAppendObserver(std::function<void(std::chrono::nanoseconds)> observer) {
    observe_append_ = std::move(observer);
  }

  // The contract as of `version` (0 = latest), for the caller's organization only.
  Result<ContractState> Load(const std::string& contract_id, uint64_t version = 0) const;

  // The cache Load reads contracts through (projections/contract_state_cache.h), for the other
  // readers of contract state (point-in-time reads) to share.
  const projections::ContractStateCache& states() const { return *states_; }

 private:
  // Load, with the stream's size in bytes.
  Result<projections::ContractSnapshot> LoadSnapshot(const std::string& contract_id,
                                                     uint64_t version = 0) const;
  Result<CommandOutcome> Run(const esign::Actor& actor, const std::string& contract_id,
                             bool creating, const Command& command, const CommandMeta& meta);
  Result<CommandOutcome> DecideAndAppend(const esign::Actor& actor, const std::string& contract_id,
                                         bool creating, const Command& command,
                                         const CommandMeta& meta,
                                         const eventstore::IdempotencyReservation* seed);
  // A command decided, with what the service adds by itself, not yet appended.
  struct Decision {
    ContractState before;             // the contract the command was decided on
    uint64_t stream_bytes = 0;        // of event data in its stream then
    ContractState after;              // the contract once `events` are appended
    std::vector<DomainEvent> events;  // the command's, then the follow-ups
  };
  // The caller's uploads that a CreateContract names (none for other commands).
  Result<std::vector<UploadedDocument>> UploadsNamedBy(const Command& command,
                                                       const esign::Actor& actor) const;
  Result<Decision> DecideWithFollowUps(const esign::Actor& actor, const std::string& contract_id,
                                       bool creating, const Command& command,
                                       const CommandMeta& meta);
  std::vector<eventstore::NewEvent> NewEvents(const std::string& contract_id,
                                              const Command& command,
                                              const std::vector<DomainEvent>& decided,
                                              const CommandMeta& meta,
                                              const eventstore::IdempotencyReservation* seed);
  // What the service adds to a decision by itself: provider sessions that automatic mode starts,
  // and completion (with the signed PDF) once every signer has signed.
  // `after`: the contract after `decided`; on return, after the follow-ups too.
  // `actor`: recorded with the events, which the completion certificate shows.
  Result<std::vector<DomainEvent>> FollowUps(ContractState& after,
                                             const std::vector<DomainEvent>& decided,
                                             const DecisionContext& context,
                                             const eventstore::Actor& actor);
  void NotifyProviderSessions(const ContractState& after, const std::vector<DomainEvent>& events);
  // The ids of the events to append: random, seeded by an Idempotency-Key, or (RunDueTimers)
  // derived from the timer that fired.
  std::vector<std::string> EventIds(const std::string& contract_id, const Command& command,
                                    const std::vector<DomainEvent>& events,
                                    const eventstore::IdempotencyReservation* seed);

  eventstore::EventStore& store_;
  std::unique_ptr<projections::ContractStateCache> states_;
  TemplateLookup templates_;
  RecordWrite record_write_;
  IdGenerator& ids_;
  const Clock& clock_;
  std::function<void(std::chrono::nanoseconds)> observe_append_;
  FreezeDocument freeze_document_;
  FindUploads find_uploads_;
  StoreEvidence store_evidence_;
  SealDocument seal_document_;
  ResolveProvider resolve_provider_;
  ProviderSessionStarted provider_session_started_;
  ProviderSessionEnded provider_session_ended_;
  const SignerSecrets* signer_secrets_ = nullptr;
};

}  // namespace esign::commands
