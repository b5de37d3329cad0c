// Internal to the contract aggregate: the shared checks of the Decide functions, each returning
// the error the API specifies. Not for use outside domain/contract_*.cc.
#pragma once

#include <string>
#include <vector>

#include "domain/contract.h"

namespace esign::contract_rules {

Status RequirePermission(const Actor& actor, std::string_view permission, std::string field = "",
                         std::string issue = "");

// The contract exists and the actor's organization controls it.
Status RequireControl(const ContractState& state, const Actor& actor);

Status RequireDraft(const ContractState& state, std::string_view what);

// kValidationFailed for members the request may not carry; organizationSigningMode is
// "read-only".
void RejectUnknown(const boost::json::object& unknown, Details& details);

// The template version for an existing contract.
Result<const TemplateVersion*> VersionOf(const ContractState& state,
                                         const DecisionContext& context);

Status FailIfAny(ErrorCode code, std::string message, const Details& details);

// Decides preparation and sending on a draft (state already includes anything the same request
// changed). Shared by SendContract and CreateContract with sendNow.
Result<std::vector<DomainEvent>> DecidePrepareAndSend(const ContractState& state,
                                                      const TemplateVersion& version,
                                                      const DecisionContext& context);

Result<std::vector<DomainEvent>> DecideCreate(const ContractState& state,
                                              const CreateContract& command,
                                              const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideUpdateData(const ContractState& state,
                                                  const UpdateData& command,
                                                  const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideUpdateTableData(const ContractState& state,
                                                       const UpdateTableData& command,
                                                       const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideReplaceParticipants(const ContractState& state,
                                                           const ReplaceParticipants& command,
                                                           const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideUpdateRoleBindings(const ContractState& state,
                                                          const UpdateRoleBindings& command,
                                                          const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideSend(const ContractState& state, const SendContract& command,
                                            const DecisionContext& context);
// A file for the signer's attachment fields, in their open session, at most
// kMaxAttachmentsPerSession; the same file again is a replay that appends nothing.
Result<std::vector<DomainEvent>> DecideSignerAttachment(const ContractState& state,
                                                        const RecordSignerAttachment& c,
                                                        const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideSignerCompleted(const ContractState& state,
                                                       const RecordSignerCompleted& command,
                                                       const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideSignerDeclined(const ContractState& state,
                                                      const RecordSignerDeclined& command,
                                                      const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideComplete(const ContractState& state,
                                                const CompleteContract& command,
                                                const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideCreateSession(const ContractState& state,
                                                     const CreateSigningSession& command,
                                                     const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideCancelSession(const ContractState& state,
                                                     const CancelSigningSession& command,
                                                     const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideRefreshSession(const ContractState& state,
                                                      const RefreshSigningSession& command,
                                                      const DecisionContext& context);
// The integrator's embed URL for an open hosted session (signing:manage).
Result<std::vector<DomainEvent>> DecideIssueEmbedUrl(const ContractState& state,
                                                     const IssueEmbedUrl& command,
                                                     const DecisionContext& context);
// The embed URL spent by the page it opens: the session's unspent, unexpired embed token only
// (else SIGNING_SESSION_CANCELLED, issue "used", or SIGNING_SESSION_EXPIRED, issue "expired").
Result<std::vector<DomainEvent>> DecideOpenEmbedded(const ContractState& state,
                                                    const OpenEmbeddedSession& command,
                                                    const DecisionContext& context);
// The session a signer acts through, if any: open, the participant's own (else the error that
// says why not: SIGNING_SESSION_NOT_FOUND / _STATE_CONFLICT / _EXPIRED / _CANCELLED).
// `link_sha256`, when given, must be the session's current link (a refresh replaces it).
Status RequireOpenSession(const ContractState& state, std::string_view session_id,
                          std::string_view participant_id, std::string_view now,
                          std::string_view link_sha256 = "");
Result<std::vector<DomainEvent>> DecideSendSignerCode(const ContractState& state,
                                                      const SendSignerCode& command,
                                                      const DecisionContext& context);
// A match, or a failed attempt (and, at the fifth, the lock): never an error for a wrong code.
Result<std::vector<DomainEvent>> DecideSignerAuthentication(
    const ContractState& state, const RecordSignerAuthentication& command,
    const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideVoid(const ContractState& state, const VoidContract& command,
                                            const DecisionContext& context);
Result<std::vector<DomainEvent>> DecideRemind(const ContractState& state,
                                              const RemindParticipants& command,
                                              const DecisionContext& context);
// Nothing (no events, no error) when no timer of the contract is due at context.now.
Result<std::vector<DomainEvent>> DecideDueTimers(const ContractState& state,
                                                 const DecisionContext& context);
Result<std::vector<DomainEvent>> DecidePersistEvidence(const ContractState& state,
                                                       const PersistEvidence& command,
                                                       const DecisionContext& context);

}  // namespace esign::contract_rules
