// Commands on the contract aggregate. The integrator's commands keep the request members as
// JSON (null when absent) so that Decide validates them in the order the rules require and names
// each problem by its request path; members the API does not know land in `unknown` and are
// rejected by Decide. The signing layer's commands are typed.
//
// Who issues them: http/ for CreateContract .. SendContract, VoidContract and RemindParticipants
// (mapped from the request by http/contract_requests.h) and PersistEvidence (bearer actor); the
// scheduler for RunDueTimers;
// the signing layer (hosted page, integrator-managed completion, provider callbacks) for
// RecordSignerCompleted / RecordSignerDeclined, having authorized the signer itself; the
// documents layer for CompleteContract once the signed PDF is stored.
#pragma once

#include <boost/json.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "domain/result.h"
#include "domain/signer_field_rules.h"

namespace esign {

// POST /contracts.
struct CreateContract {
  boost::json::value title;
  boost::json::value template_id;
  boost::json::value template_version_id;
  boost::json::value data;  // section-based; excludes field_values and table_data
  boost::json::value field_values;
  boost::json::value table_data;
  boost::json::value participants;
  boost::json::value role_bindings;
  boost::json::value signing_settings;
  boost::json::value send_now;
  boost::json::value notifications;
  // A contract from uploads (DESIGN section 20) instead of templateId: the documents in order,
  // fields placed by coordinates, and AcroForm fields mapped to placed fields.
  boost::json::value documents;
  boost::json::value fields;
  boost::json::value form_field_mapping;
  boost::json::object unknown;  // e.g. organizationSigningMode, which is read-only
  // Set by the bulk send runner, never from a request: the job the contract comes from.
  std::string bulk_send_id;
};

// PUT /contracts/{id}/data.
struct UpdateData {
  boost::json::value field_values;  // required
  boost::json::value table_data;
  boost::json::object unknown;
};

// PUT /contracts/{id}/table-data.
struct UpdateTableData {
  boost::json::value table_data;  // required
  boost::json::object unknown;
};

// PUT /contracts/{id}/participants.
struct ReplaceParticipants {
  boost::json::value participants;  // required
  boost::json::object unknown;
};

// PUT /contracts/{id}/role-bindings.
struct UpdateRoleBindings {
  boost::json::value role_bindings;  // required
  boost::json::value signing_settings;
  boost::json::object unknown;
};

// POST /contracts/{id}/send.
struct SendContract {
  boost::json::value role_bindings;
  boost::json::value signing_settings;
  boost::json::value notifications;
  boost::json::object unknown;
};

// A signer finished signing. `evidence` is recorded verbatim in signer.completed (signer name,
// IP address, user agent, authentication method, consent, channel, session id, hashes...).
struct RecordSignerCompleted {
  std::string participant_id;
  std::string signed_at;  // RFC 3339; empty: DecisionContext::now
  boost::json::object evidence;
  std::string session_id;   // when given, the session must be open and the participant's
  std::string link_sha256;  // hosted: the hash of the link's token used, which must be current
  // The values of the fields the signer fills in: [{field, value}] (domain/signer_field_rules.h);
  // null when none are given.
  boost::json::value field_values;
};

// A signer declined.
struct RecordSignerDeclined {
  std::string participant_id;
  std::string reason;       // may be empty
  std::string session_id;   // as for RecordSignerCompleted
  std::string link_sha256;  // as for RecordSignerCompleted
};

// The signed PDF is stored; the contract completes.
struct CompleteContract {
  std::string signed_pdf_key;
  std::string signed_pdf_sha256;  // optional; when given, recorded as an artifact revision
  // Optional: the SHA-256 of the signed contract pages (the signed PDF before its completion
  // certificate and seal), which the certificate names.
  std::string signed_content_sha256;
};

// POST /contracts/{id}/evidence/bundle: an evidence bundle is stored as a new revision.
// revision 0 is the next one. Without sha256 the bundle is stored only once the command is
// decided (DecisionContext::stored_evidence_sha256), so a refused request stores nothing.
struct PersistEvidence {
  int64_t revision = 0;
  std::string sha256;
};

// POST /contracts/{id}/void.
struct VoidContract {
  boost::json::value reason;  // required, 1..500 characters
  boost::json::object unknown;
};

// POST /contracts/{id}/remind: reminds the named signers now, or (participantIds absent) every
// signer whose turn it is and who was not reminded within the hour.
struct RemindParticipants {
  boost::json::value participant_ids;
  boost::json::object unknown;
};

// The service's own command (actor "system"), issued by the scheduler when a timer of the
// contract is due: expires the contract once its expiresAt has passed, else sends the scheduled
// reminders that are due. On a contract with nothing due it decides no events. No actor check.
struct RunDueTimers {};

// A contract's stream takes at most this many events from commands other than the signers' own
// (every command replays the stream, so it must stay bounded).
inline constexpr uint64_t kMaxContractEvents = 10000;
// And at most this many events, and this many bytes of event data, from any command at all,
// signers' steps included: past either, a command is refused (409 CONTRACT_STATE_CONFLICT on
// "stream") and nothing is stored. The room above kMaxContractEvents is for the signers' own
// steps (at most 100 participants, each signing or declining once, its reminders and codes).
inline constexpr uint64_t kMaxContractStreamEvents = 12000;
inline constexpr uint64_t kMaxContractStreamBytes = uint64_t{64} << 20;

// At most this many evidence bundles are persisted per contract (each is a stored blob).
inline constexpr size_t kMaxEvidenceBundlesPerContract = 50;

// POST /contracts/{id}/signing-sessions, or the service itself for an organization signer in
// automatic mode (`automatic`: no actor check). Ids, token hash and expiry come from the caller
// (the domain has no randomness and no clock arithmetic).
struct CreateSigningSession {
  std::string participant_id;
  std::string session_id;
  std::string token_sha256;  // platform_hosted: hex SHA-256 of the link's token
  std::string expires_at;    // RFC 3339 UTC in the service's format
  std::string return_url;    // platform_hosted only; optional
  std::string provider_id;   // provider_managed: the configured provider
  bool automatic = false;
};

// POST /signing-sessions/{id}/cancel.
struct CancelSigningSession {
  std::string session_id;
};

// POST /signing-sessions/{id}/refresh: a new expiry and, for a hosted session, a new token.
struct RefreshSigningSession {
  std::string session_id;
  std::string token_sha256;
  std::string expires_at;
};

// POST /signing-sessions/{id}/embed-url: a single-use URL that opens the hosted session in a frame
// until `expires_at` (the caller's clock plus 5 minutes); a newer one replaces it.
struct IssueEmbedUrl {
  std::string session_id;
  std::string embed_token_sha256;
  std::string expires_at;
};

// GET /embed/{token}: the framed page spends the embed URL and receives a proof of its own.
struct OpenEmbeddedSession {
  std::string session_id;
  std::string embed_token_sha256;
  std::string page_token_sha256;
};

// POST /hosted-signing/{token}/authentication/email-code: the next e-mail code of the session is
// recorded as sent (the outbox mails it). `expires_at` comes from the caller (now + 10 minutes).
struct SendSignerCode {
  std::string session_id;
  std::string link_sha256;
  std::string expires_at;
};

// What a code the signer typed turned out to be (CheckSignerCode, signer_authentication.h).
// kSpent: the right e-mail code, but it proved the session already (a code is good once).
enum class SignerCodeCheck { kMatched, kWrong, kExpired, kSpent };

// POST /hosted-signing/{token}/authentication: the signer typed a code; a match is recorded as
// signer.authenticated, anything else as a failed attempt (the fifth locks the session).
struct RecordSignerAuthentication {
  std::string session_id;
  std::string link_sha256;
  SignerCodeCheck check = SignerCodeCheck::kWrong;
  int code_number = 0;  // email_otp: the number of the code that matched (the session's latest)
};

// POST /signing-sessions/{id}/attachments or /hosted-signing/{token}/attachments: a file for the
// signer's attachment fields, checked and stored by the caller (commands/signer_attachments.h).
struct RecordSignerAttachment {
  std::string session_id;
  std::string link_sha256;  // hosted: the hash of the link's token used, which must be current
  SignerAttachment attachment;
};

using Command =
    std::variant<CreateContract, UpdateData, UpdateTableData, ReplaceParticipants,
                 UpdateRoleBindings, SendContract, RecordSignerCompleted, RecordSignerDeclined,
                 CompleteContract, PersistEvidence, CreateSigningSession, CancelSigningSession,
                 RefreshSigningSession, VoidContract, RemindParticipants, RunDueTimers,
                 SendSignerCode, RecordSignerAuthentication, RecordSignerAttachment, IssueEmbedUrl,
                 OpenEmbeddedSession>;

// The command's name, e.g. "CreateContract".
std::string_view CommandName(const Command& command);

}  // namespace esign
