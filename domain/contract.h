// The contract aggregate, event-sourced and pure:
//   Decide(state, command, context) -> the events the command causes, or the error that refuses
//   it; nothing is changed and nothing is fetched.
//   Apply(state, event) -> the state after the event; total (unknown types only count).
// The caller (the command handler) loads the state by replaying the contract's stream, loads the
// template, fills a DecisionContext, calls Decide, appends the events with optimistic
// concurrency at state.version, and retries on a version conflict. Safe from any thread; the
// context's pointers must outlive the call.
//
// Authorization inside Decide: permissions of the actor for the integrator's commands
// (contracts:create, contracts:update, contracts:send (also void and remind), evidence:write) and
// the controller check (a contract of another organization answers kContractNotFound, so existence
// does not leak). The signing layer's commands (RecordSignerCompleted, RecordSignerDeclined) and
// CompleteContract carry no actor check: their callers authorize (session token, provider HMAC,
// signing:manage); nor does RunDueTimers, which only the service's scheduler issues.
#pragma once

#include <boost/json.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "domain/contract_commands.h"
#include "domain/contract_events.h"
#include "domain/contract_state.h"
#include "domain/notifications.h"
#include "domain/result.h"
#include "domain/template.h"
#include "domain/uploaded_document.h"

namespace esign {

// The one answer for a contract that does not exist and for one the actor may not see: the same
// code, message and (no) details, so the two cannot be told apart.
std::unexpected<Error> ContractNotFound();

struct Actor {
  std::string client_id;
  std::string organization_id;
  std::set<std::string, std::less<>> permissions;  // e.g. "contracts:create"
  bool Has(std::string_view permission) const { return permissions.contains(permission); }
};

// Signature placements by participant id.
using PlacementsByParticipant = std::map<std::string, std::vector<SignaturePlacement>, std::less<>>;

// The document frozen at send: its blob's sha256, and where it drew each signer's boxes (the
// template's placements, or moved to keep them with the text: documents/signature_keeping.h).
struct FrozenDocument {
  std::string sha256;
  PlacementsByParticipant signature_placements;  // empty: as the template places them
};

// What the pure code may not fetch itself.
struct DecisionContext {
  Actor actor;
  // The contract's template, loaded by the caller: for CreateContract by the command's
  // templateId, afterwards by state.template_id. Required by every command that validates data,
  // participants or roles; when null there, Decide answers kTemplateNotFound.
  const Template* tmpl = nullptr;
  // The version to use, resolved by the caller (the named one, else the published one; see
  // SelectTemplateVersion). When null, Decide resolves it the same way: from the command's
  // templateVersionId at creation, from state.template_version_id afterwards.
  const TemplateVersion* template_version = nullptr;
  // CreateContract from uploads: the caller's organization's uploads that the request names, as
  // the caller found them (an id not among them is not found).
  std::vector<UploadedDocument> uploads;
  std::string now;                           // RFC 3339, the decision's time
  std::string contract_id;                   // CreateContract: the new contract's id (ctr_...)
  std::vector<std::string> participant_ids;  // fresh ids (prt_...), used in order for new
                                             // participants that bring no participantId
  boost::json::object platform_notifications = PlatformNotificationDefaults();
  boost::json::object organization_notifications;       // the actor organization's defaults
  std::optional<std::string> rendered_document_sha256;  // recorded by contract.prepared
  // Where the frozen document drew a signer's boxes, when not where the template places them;
  // contract.prepared records these.
  PlacementsByParticipant signature_placements;
  // The organization's name, recorded by contract.prepared (the frozen PDF names it); may be empty.
  std::string organization_name;
  // PersistEvidence without a sha256: the bundle the caller stored once the command was decided.
  std::optional<std::string> stored_evidence_sha256;
};

[[nodiscard]] Result<std::vector<DomainEvent>> Decide(const ContractState& state,
                                                      const Command& command,
                                                      const DecisionContext& context);

ContractState Apply(ContractState state, const DomainEvent& event);

// Apply over a sequence, from the empty state.
ContractState Replay(const std::vector<DomainEvent>& events);

}  // namespace esign
