// Participants of a contract: who signs, views or receives a copy, through which channel, and
// where each stands in the signing flow. ReadParticipants validates a request's `participants`
// array against the rules of the specification (section 2) and DESIGN section 8:
//   - action sign|view|receive_copy and recipientType individual|organization are required;
//   - name is required; an individual has a valid email and no organizationId; an organization
//     has an organizationId (email optional);
//   - a signer needs executionChannel: platform_hosted or integrator_managed for an individual,
//     provider_managed for an organization; view and receive_copy must not carry one;
//   - providerConfigRef only on provider_managed signers;
//   - participantId, when the client chooses it, matches ^[A-Za-z0-9_-]{1,64}$ and is unique;
//   - routingOrder, when given, is an integer 1..100 (else kContractRoleBindingInvalidRouting);
//   - authentication (none by default) other than none only for platform_hosted signers;
//     access_code needs accessCode (4..64 characters, no control characters), which no other
//     method takes; email_otp needs the participant's email.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "domain/event_records.h"
#include "domain/json_util.h"
#include "domain/template.h"

namespace esign {

enum class ExecutionChannel { kPlatformHosted, kIntegratorManaged, kProviderManaged };
std::string_view ToString(ExecutionChannel channel);
std::optional<ExecutionChannel> ParseExecutionChannel(std::string_view text);

// How a platform_hosted signer proves who they are before the hosted page shows the document
// (DESIGN section 15): by the link alone, by an access code the integrator told them, or by a
// code mailed to their address.
enum class SignerAuthentication { kNone, kAccessCode, kEmailOtp };
std::string_view ToString(SignerAuthentication authentication);
std::optional<SignerAuthentication> ParseSignerAuthentication(std::string_view text);

// waiting: not (yet) this signer's turn, or the contract is a draft; ready: may sign now;
// signed / declined: done. View and receive_copy participants are "notified" once sent.
enum class ParticipantProgress { kWaiting, kReady, kSigned, kDeclined, kNotified };
std::string_view ToString(ParticipantProgress progress);

struct Participant {
  std::string participant_id;
  ParticipantAction action = ParticipantAction::kSign;
  RecipientType recipient_type = RecipientType::kIndividual;
  std::string name;
  std::optional<std::string> email;
  std::optional<std::string> organization_id;
  std::optional<ExecutionChannel> execution_channel;
  std::optional<int64_t> routing_order;  // the override given in the request
  std::optional<std::string> provider_config_ref;
  SignerAuthentication authentication = SignerAuthentication::kNone;
  // The access code as the request gave it: it lives only until the command handler replaces it
  // by access_code_hash (HashAccessCodes), before anything is appended.
  std::string access_code;
  std::string access_code_hash;  // hex, SignerSecrets::AccessCodeHash

  // Set by contract.prepared: the override, else the bound role's order, else 1.
  std::optional<int64_t> effective_routing_order;
  ParticipantProgress progress = ParticipantProgress::kWaiting;
  std::optional<std::string> signed_at;
  std::optional<std::string> declined_at;
  std::optional<std::string> decline_reason;
  boost::json::object signing_evidence;  // signer.completed's evidence (signer name, signature...)
  // Reminders (participant.reminded): when the signer's routing turn came, how many reminders
  // they got (scheduled ones among them) and when the last one went out.
  std::optional<std::string> ready_since;
  int64_t reminder_count = 0;
  int64_t scheduled_reminder_count = 0;
  std::optional<std::string> last_reminded_at;

  bool signs() const { return action == ParticipantAction::kSign; }
};

// A participant as read from a request, with the role it asks for, if any.
struct ParticipantRequest {
  Participant participant;
  std::optional<std::string> template_role_id;
};

inline constexpr size_t kMaxParticipants = 100;
inline constexpr int64_t kMinAccessCodeLength = 4;
inline constexpr int64_t kMaxAccessCodeLength = 64;

// Reads `participants` at `path`. Entries without a participantId take the next of `fresh_ids`
// (*next_fresh is advanced). Problems go to `validation` (kValidationFailed) or `routing`
// (kContractRoleBindingInvalidRouting).
std::vector<ParticipantRequest> ReadParticipants(const boost::json::value& value,
                                                 const std::string& path,
                                                 const std::vector<std::string>& fresh_ids,
                                                 size_t* next_fresh, Details& validation,
                                                 Details& routing);

// The fields a request may set, as stored in events (no progress): `accessCode` until the
// command handler hashes it, `accessCodeHash` after. Never shown by the API as is
// (ParticipantToJson drops both).
ParticipantRecord ParticipantToRecord(const Participant& participant);
Participant ParticipantFromRecord(const ParticipantRecord& record);
boost::json::object ParticipantToEventJson(const Participant& participant);
Participant ParticipantFromEventJson(const boost::json::object& object);

}  // namespace esign
