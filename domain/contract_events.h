// Events of the contract aggregate. Decide returns them, the command handler appends them to the
// contract's stream, and Apply folds them into ContractState. Each event's data carries
// everything Apply needs (no template, clock or other stream is consulted on replay), so
// projections and `contract-ledger replay` work from the log alone. Every data object carries
// "contractId". Data, by type:
//
//   contract.created  title, templateId, templateVersionId, organizationSigningMode,
//                     organizationId (controller), createdBy (client id), fieldValues [{key,
//                     value}], tableData {tableKey: rows}, participants [participant],
//                     roleBindings [{templateRoleId, participantId}], signingSettings,
//                     notifications (the contract's override), createdAt
//   contract.data_updated         fieldValues, tableData (both complete after the change),
//                                 changedFields [key], changedTables [tableKey], updatedAt
//   contract.table_data_updated   tableData (complete), changedTables, updatedAt
//   contract.participants_replaced  participants, roleBindings (complete), updatedAt
//   contract.role_bindings_updated  roleBindings, signingSettings (complete), updatedAt
//   contract.prepared  roleBindings, signingSettings, notifications (override after the send
//                      request's), notificationSnapshot (resolved platform < organization <
//                      template < contract), roles [{templateRoleId, participantId, action,
//                      recipientType, routingOrder, signaturePlacement}], routing
//                      [{participantId, routingOrder}] for every participant, droppedRoles
//                      [templateRoleId], renderedDocumentSha256 (when known), organizationName
//                      (when it has one), preparedAt
//   contract.sent      sentAt, readyParticipantIds (the signers whose turn it is), expiresAt
//                      (when the contract expires unless it ended before; absent in contracts
//                      sent before expiry existed, which expire expiresInDays after sentAt)
//   signer.completed   participantId, templateRoleId, signedAt, evidence {..},
//                      remainingSigners, readyParticipantIds (after this signature),
//                      recordedAt
//   contract.signing_in_progress  at
//   contract.completed  signedPdfKey, signedPdfSha256 (optional), revision (when sha given),
//                       signedContentSha256 (optional: the signed contract pages the completion
//                       certificate names; absent in older contracts), completedAt
//   signer.declined    participantId, templateRoleId, reason, declinedAt
//   contract.declined  participantId, reason, declinedAt
//   contract.evidence_persisted  revision, sha256, persistedAt
//   contract.voided    reason, voidedBy (client id), voidedAt
//   contract.expired   expiresAt (the deadline that passed), expiredAt (actor "system")
//   participant.reminded  participantId, reminderNumber (1, 2, ... per participant), channel
//                         ("webhook" until e-mail exists), trigger ("scheduled" | "manual"),
//                         dueAt (scheduled only: the due time it fired for), remindedAt
//   signing_session.created    sessionId, participantId, channel, tokenSha256 (hosted), expiresAt,
//                              returnUrl?, providerId?, documentSha256, automatic, createdAt
//   signing_session.cancelled  sessionId, reason ("cancelled" | "superseded"), cancelledAt
//   signing_session.refreshed  sessionId, tokenSha256 (hosted), expiresAt, refreshedAt
//   signing_session.embed_url_issued  sessionId, embedTokenSha256, expiresAt (the URL's: 5
//                                     minutes), issuedAt
//   signing_session.embed_opened      sessionId, embedTokenSha256 (spent), pageTokenSha256 (the
//                                     framed page's own proof), openedAt
//   signer.authentication_code_sent  sessionId, participantId, codeNumber (1..5 per session),
//                                    expiresAt, sentAt (the code: SignerSecrets::EmailCode)
//   signer.authenticated             sessionId, participantId, method, authenticationNumber
//                                    (1, 2, ... per session: the proof's number), authenticatedAt
//   signer.authentication_attempt_failed  sessionId, participantId, method, issue ("wrong" |
//                                         "expired"), failedAttempts (in the session), failedAt
//   signer.authentication_failed     sessionId, participantId, method, failedAttempts, failedAt:
//                                    the session is locked
//   signer.attachment_uploaded  sessionId, participantId, sha256, name, mediaType, size,
//   uploadedAt:
//                               a file for an attachment field, its bytes a blob
// signer.completed and signer.declined carry "sessionId" when they came through a session.
//
// A participant is {participantId, action, recipientType, name, email?, organizationId?,
// executionChannel?, routingOrder? (override), providerConfigRef?, authentication? (absent:
// none), accessCodeHash? (access_code)}.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>

namespace esign {

struct DomainEvent {
  std::string type;
  boost::json::object data;
};

namespace event_type {
inline constexpr std::string_view kContractCreated = "contract.created";
inline constexpr std::string_view kDataUpdated = "contract.data_updated";
inline constexpr std::string_view kTableDataUpdated = "contract.table_data_updated";
inline constexpr std::string_view kParticipantsReplaced = "contract.participants_replaced";
inline constexpr std::string_view kRoleBindingsUpdated = "contract.role_bindings_updated";
inline constexpr std::string_view kContractPrepared = "contract.prepared";
inline constexpr std::string_view kContractSent = "contract.sent";
inline constexpr std::string_view kSignerCompleted = "signer.completed";
inline constexpr std::string_view kSigningInProgress = "contract.signing_in_progress";
inline constexpr std::string_view kContractCompleted = "contract.completed";
inline constexpr std::string_view kSignerDeclined = "signer.declined";
inline constexpr std::string_view kContractDeclined = "contract.declined";
inline constexpr std::string_view kEvidencePersisted = "contract.evidence_persisted";
inline constexpr std::string_view kContractVoided = "contract.voided";
inline constexpr std::string_view kContractExpired = "contract.expired";
inline constexpr std::string_view kParticipantReminded = "participant.reminded";
inline constexpr std::string_view kSessionCreated = "signing_session.created";
inline constexpr std::string_view kSessionCancelled = "signing_session.cancelled";
inline constexpr std::string_view kSessionRefreshed = "signing_session.refreshed";
inline constexpr std::string_view kSessionEmbedUrlIssued = "signing_session.embed_url_issued";
inline constexpr std::string_view kSessionEmbedOpened = "signing_session.embed_opened";
inline constexpr std::string_view kSignerCodeSent = "signer.authentication_code_sent";
inline constexpr std::string_view kSignerAuthenticated = "signer.authenticated";
inline constexpr std::string_view kSignerAttemptFailed = "signer.authentication_attempt_failed";
inline constexpr std::string_view kSignerAuthenticationFailed = "signer.authentication_failed";
inline constexpr std::string_view kSignerAttachmentUploaded = "signer.attachment_uploaded";
}  // namespace event_type

// {"type": ..., "data": {...}} and back, for tests and tools; a malformed object yields an
// event of empty type, which Apply ignores.
boost::json::object DomainEventToJson(const DomainEvent& event);
DomainEvent DomainEventFromJson(const boost::json::object& object);

}  // namespace esign
