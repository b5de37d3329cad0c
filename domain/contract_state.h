// The state of one contract, rebuilt from its events by Apply (contract.h). It holds everything
// the contract and status responses show (DESIGN section 5a) and everything Decide needs; no
// field is set except by an event. A value type: copy freely, share read-only between threads.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/contract_data.h"
#include "domain/participant.h"
#include "domain/placed_fields.h"
#include "domain/role_binding.h"
#include "domain/signing_session.h"
#include "domain/template.h"

namespace esign {

// completed, declined, voided and expired are terminal: nothing but evidence follows them.
enum class ContractStatus { kDraft, kSent, kSigning, kCompleted, kDeclined, kVoided, kExpired };
std::string_view ToString(ContractStatus status);

// A role as frozen by contract.prepared: who fills it, when they sign, where the boxes are.
struct PreparedRole {
  std::string template_role_id;
  std::string participant_id;
  ParticipantAction action = ParticipantAction::kSign;
  RecipientType recipient_type = RecipientType::kIndividual;
  int64_t routing_order = 1;
  std::vector<SignaturePlacement> signature_placement;
};

// A persisted artifact (signed PDF or evidence bundle), numbered per contract.
struct ArtifactRevision {
  int64_t revision = 0;
  std::string kind;  // "signed_pdf" or "evidence_bundle"
  std::string sha256;
  std::string created_at;
};

struct ContractState {
  std::string id;
  uint64_t version = 0;  // events applied; 0: the contract does not exist
  ContractStatus status = ContractStatus::kDraft;
  std::string title;
  std::string template_id;
  std::string template_version_id;
  // A contract made from uploads (DESIGN section 20): its documents in order and the fields placed
  // on them; both empty for a contract made from a template version.
  std::vector<ContractDocument> documents;
  std::vector<PlacedField> fields;
  OrganizationSigningMode organization_signing_mode = OrganizationSigningMode::kAutomatic;
  std::string organization_id;  // the controller: the creating client's organization
  std::string created_by;       // client id
  std::string bulk_send_id;     // the bulk send that made it; empty for every other contract
  ContractData data;
  DataForm data_form = DataForm::kDirect;  // as the creating request gave the data
  std::vector<Participant> participants;
  std::vector<RoleBinding> role_bindings;
  boost::json::object signing_settings;
  boost::json::object notifications;          // the contract's override, as merged from requests
  boost::json::object notification_snapshot;  // resolved at preparation
  std::vector<PreparedRole> prepared_roles;
  std::vector<std::string> dropped_roles;  // unbound optional roles, dropped at preparation
  std::optional<std::string> rendered_document_sha256;
  // The organization's name as contract.prepared recorded it: what its PDF and certificate say.
  // Empty when it had none or was prepared before names were recorded (they say the id).
  std::string organization_name;
  std::optional<std::string> signed_pdf_key;
  std::optional<std::string> signed_pdf_sha256;
  // The signed contract pages, before the completion certificate and the seal (contract.completed).
  std::optional<std::string> signed_content_sha256;
  std::vector<ArtifactRevision> artifact_revisions;
  std::vector<SigningSession> sessions;  // in creation order
  std::string created_at;
  std::string updated_at;
  std::optional<std::string> prepared_at;
  std::optional<std::string> sent_at;
  std::optional<std::string> completed_at;
  std::optional<std::string> declined_at;
  // Fixed by contract.sent: when the contract expires unless it ended before.
  std::optional<std::string> expires_at;
  std::optional<std::string> voided_at;
  std::optional<std::string> void_reason;
  std::optional<std::string> voided_by;  // client id
  std::optional<std::string> expired_at;

  bool exists() const { return version > 0; }
  bool from_uploads() const { return !documents.empty(); }
  bool in_signing_flow() const {
    return status == ContractStatus::kSent || status == ContractStatus::kSigning;
  }
  const Participant* FindParticipant(std::string_view participant_id) const;
  Participant* FindParticipant(std::string_view participant_id);
  // The role bound to a participant, if any.
  const RoleBinding* BindingOf(std::string_view participant_id) const;
  const PreparedRole* PreparedRoleOf(std::string_view participant_id) const;
  const SigningSession* FindSession(std::string_view session_id) const;
  SigningSession* FindSession(std::string_view session_id);
  // Signers who have not signed yet (after preparation: every bound signer).
  size_t UnsignedSignerCount() const;
  int64_t LatestRevision() const;
};

// The contract representation of the API (DESIGN section 5a).
boost::json::object ContractToJson(const ContractState& state);

// The documents of a contract from uploads, in order, each with its page range in the composed
// PDF: [{documentIndex, documentId, name, sha256, uploadSha256, pageCount, firstPage, lastPage,
// pages}]; empty for a contract from a template.
boost::json::array ContractDocumentListToJson(const ContractState& state);

// The status response: {id, status, organizationSigningMode, version, lifecycle, participants}.
boost::json::object ContractStatusToJson(const ContractState& state);

}  // namespace esign
