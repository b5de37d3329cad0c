// The data of every event type the log holds, one struct each, described with Boost.Describe so
// that domain/event_codec.h reads, writes and publishes the schema of each from that one
// description (docs/events.md). kType is the event's type; kDescription goes into the schema.
//
// A member that older events lack is std::optional or keeps its default when read; stored events
// are never rewritten. Nested records the schema spells out are described here too; documents,
// fields and settings keep the shapes of their own codecs (placed_fields.h, signing_settings.h,
// notifications.h) and appear as objects.
#pragma once

#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/mp11.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/bulk_send.h"
#include "domain/contract_events.h"
#include "domain/event_records.h"
#include "domain/organization_contact.h"
#include "domain/organization_settings.h"
#include "domain/template_events.h"
#include "domain/uploaded_document.h"

namespace esign {

// ---- the events -------------------------------------------------------------------------------

struct ContractCreatedData {
  static constexpr std::string_view kType = event_type::kContractCreated;
  static constexpr std::string_view kDescription =
      "A contract was created as a draft, with everything it holds.";
  std::string contract_id;
  std::string title;
  std::optional<std::string> template_id;  // absent in contracts from uploads
  std::optional<std::string> template_version_id;
  std::string organization_signing_mode;
  std::string organization_id;
  std::string created_by;
  std::vector<DataValueRecord> field_values;
  boost::json::object table_data;
  std::vector<ParticipantRecord> participants;
  std::vector<RoleBindingRecord> role_bindings;
  boost::json::object signing_settings;
  boost::json::object notifications;
  std::optional<std::vector<boost::json::object>> documents;
  std::optional<std::vector<boost::json::object>> fields;
  std::optional<std::string> bulk_send_id;  // the bulk send that made it
  // "sections" when the request gave its data by section (`data`); absent when it gave
  // fieldValues and tableData, or nothing.
  std::optional<std::string> data_form;
  std::string created_at;
};
BOOST_DESCRIBE_STRUCT(ContractCreatedData, (),
                      (contract_id, title, template_id, template_version_id,
                       organization_signing_mode, organization_id, created_by, field_values,
                       table_data, participants, role_bindings, signing_settings, notifications,
                       documents, fields, bulk_send_id, data_form, created_at))

struct DataUpdatedData {
  static constexpr std::string_view kType = event_type::kDataUpdated;
  static constexpr std::string_view kDescription =
      "The draft's data changed; fieldValues and tableData are complete after the change.";
  std::string contract_id;
  std::vector<DataValueRecord> field_values;
  std::optional<boost::json::object> table_data;
  std::vector<std::string> changed_fields;
  std::optional<std::vector<std::string>> changed_tables;
  std::string updated_at;
};
BOOST_DESCRIBE_STRUCT(DataUpdatedData, (),
                      (contract_id, field_values, table_data, changed_fields, changed_tables,
                       updated_at))

struct TableDataUpdatedData {
  static constexpr std::string_view kType = event_type::kTableDataUpdated;
  static constexpr std::string_view kDescription =
      "The draft's table data changed (complete after the change).";
  std::string contract_id;
  boost::json::object table_data;
  std::vector<std::string> changed_tables;
  std::string updated_at;
};
BOOST_DESCRIBE_STRUCT(TableDataUpdatedData, (),
                      (contract_id, table_data, changed_tables, updated_at))

struct ParticipantsReplacedData {
  static constexpr std::string_view kType = event_type::kParticipantsReplaced;
  static constexpr std::string_view kDescription = "The draft's participants were replaced.";
  std::string contract_id;
  std::vector<ParticipantRecord> participants;
  std::vector<RoleBindingRecord> role_bindings;
  std::string updated_at;
};
BOOST_DESCRIBE_STRUCT(ParticipantsReplacedData, (),
                      (contract_id, participants, role_bindings, updated_at))

struct RoleBindingsUpdatedData {
  static constexpr std::string_view kType = event_type::kRoleBindingsUpdated;
  static constexpr std::string_view kDescription = "The draft's role bindings changed.";
  std::string contract_id;
  std::vector<RoleBindingRecord> role_bindings;
  boost::json::object signing_settings;
  std::string updated_at;
};
BOOST_DESCRIBE_STRUCT(RoleBindingsUpdatedData, (),
                      (contract_id, role_bindings, signing_settings, updated_at))

struct ContractPreparedData {
  static constexpr std::string_view kType = event_type::kContractPrepared;
  static constexpr std::string_view kDescription =
      "The contract was prepared for sending: roles resolved, routing fixed, notifications "
      "resolved.";
  std::string contract_id;
  std::vector<RoleBindingRecord> role_bindings;
  boost::json::object signing_settings;
  boost::json::object notifications;
  boost::json::object notification_snapshot;
  std::vector<PreparedRoleRecord> roles;
  std::vector<RoutingRecord> routing;
  std::vector<std::string> dropped_roles;
  std::optional<std::string> rendered_document_sha256;
  // The sender organization's name when it was prepared (its documents say it); absent when it
  // had none, and in contracts prepared before it was recorded.
  std::optional<std::string> organization_name;
  std::string prepared_at;
};
BOOST_DESCRIBE_STRUCT(ContractPreparedData, (),
                      (contract_id, role_bindings, signing_settings, notifications,
                       notification_snapshot, roles, routing, dropped_roles,
                       rendered_document_sha256, organization_name, prepared_at))

struct ContractSentData {
  static constexpr std::string_view kType = event_type::kContractSent;
  static constexpr std::string_view kDescription =
      "The contract was sent; readyParticipantIds are the signers whose turn it is.";
  std::string contract_id;
  std::string sent_at;
  std::vector<std::string> ready_participant_ids;
  std::optional<std::string> expires_at;
};
BOOST_DESCRIBE_STRUCT(ContractSentData, (),
                      (contract_id, sent_at, ready_participant_ids, expires_at))

struct SignerCompletedData {
  static constexpr std::string_view kType = event_type::kSignerCompleted;
  static constexpr std::string_view kDescription =
      "A signer signed. fieldValues (what the signer entered) stays in the log: webhooks and Kafka "
      "carry filledFields only.";
  std::string contract_id;
  std::string participant_id;
  std::string template_role_id;
  std::string signed_at;
  boost::json::object evidence;
  int64_t remaining_signers;
  std::vector<std::string> ready_participant_ids;
  std::string recorded_at;
  std::optional<std::string> session_id;
  std::optional<std::vector<SignerValueRecord>> field_values;
  std::optional<std::vector<std::string>> filled_fields;
};
BOOST_DESCRIBE_STRUCT(SignerCompletedData, (),
                      (contract_id, participant_id, template_role_id, signed_at, evidence,
                       remaining_signers, ready_participant_ids, recorded_at, session_id,
                       field_values, filled_fields))

struct SigningInProgressData {
  static constexpr std::string_view kType = event_type::kSigningInProgress;
  static constexpr std::string_view kDescription = "The first signature arrived.";
  std::string contract_id;
  std::string at;
};
BOOST_DESCRIBE_STRUCT(SigningInProgressData, (), (contract_id, at))

struct ContractCompletedData {
  static constexpr std::string_view kType = event_type::kContractCompleted;
  static constexpr std::string_view kDescription =
      "Every signer signed and the signed PDF was sealed.";
  std::string contract_id;
  std::string signed_pdf_key;
  std::optional<std::string> signed_pdf_sha256;
  std::optional<int64_t> revision;
  std::optional<std::string> signed_content_sha256;
  std::string completed_at;
};
BOOST_DESCRIBE_STRUCT(ContractCompletedData, (),
                      (contract_id, signed_pdf_key, signed_pdf_sha256, revision,
                       signed_content_sha256, completed_at))

struct SignerDeclinedData {
  static constexpr std::string_view kType = event_type::kSignerDeclined;
  static constexpr std::string_view kDescription = "A signer declined.";
  std::string contract_id;
  std::string participant_id;
  std::string template_role_id;
  std::string reason;
  std::string declined_at;
  std::optional<std::string> session_id;
};
BOOST_DESCRIBE_STRUCT(SignerDeclinedData, (),
                      (contract_id, participant_id, template_role_id, reason, declined_at,
                       session_id))

struct ContractDeclinedData {
  static constexpr std::string_view kType = event_type::kContractDeclined;
  static constexpr std::string_view kDescription = "The contract ended declined.";
  std::string contract_id;
  std::string participant_id;
  std::string reason;
  std::string declined_at;
};
BOOST_DESCRIBE_STRUCT(ContractDeclinedData, (), (contract_id, participant_id, reason, declined_at))

struct EvidencePersistedData {
  static constexpr std::string_view kType = event_type::kEvidencePersisted;
  static constexpr std::string_view kDescription = "A revision of the evidence bundle was stored.";
  std::string contract_id;
  int64_t revision;
  std::string sha256;
  std::string persisted_at;
};
BOOST_DESCRIBE_STRUCT(EvidencePersistedData, (), (contract_id, revision, sha256, persisted_at))

struct ContractVoidedData {
  static constexpr std::string_view kType = event_type::kContractVoided;
  static constexpr std::string_view kDescription = "The controller voided the contract.";
  std::string contract_id;
  std::string reason;
  std::string voided_by;
  std::string voided_at;
};
BOOST_DESCRIBE_STRUCT(ContractVoidedData, (), (contract_id, reason, voided_by, voided_at))

struct ContractExpiredData {
  static constexpr std::string_view kType = event_type::kContractExpired;
  static constexpr std::string_view kDescription = "The contract passed its deadline unsigned.";
  std::string contract_id;
  std::string expires_at;
  std::string expired_at;
};
BOOST_DESCRIBE_STRUCT(ContractExpiredData, (), (contract_id, expires_at, expired_at))

struct ParticipantRemindedData {
  static constexpr std::string_view kType = event_type::kParticipantReminded;
  static constexpr std::string_view kDescription = "A signer was reminded.";
  std::string contract_id;
  std::string participant_id;
  int64_t reminder_number;
  std::string channel;
  std::string trigger;
  std::optional<std::string> due_at;
  std::string reminded_at;
};
BOOST_DESCRIBE_STRUCT(ParticipantRemindedData, (),
                      (contract_id, participant_id, reminder_number, channel, trigger, due_at,
                       reminded_at))

struct SessionCreatedData {
  static constexpr std::string_view kType = event_type::kSessionCreated;
  static constexpr std::string_view kDescription = "A signing session was opened for a signer.";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  std::string channel;
  std::optional<std::string> token_sha256;
  std::string expires_at;
  std::optional<std::string> return_url;
  std::optional<std::string> provider_id;
  std::string document_sha256;
  bool automatic;
  std::string created_at;
};
BOOST_DESCRIBE_STRUCT(SessionCreatedData, (),
                      (contract_id, session_id, participant_id, channel, token_sha256, expires_at,
                       return_url, provider_id, document_sha256, automatic, created_at))

struct SessionCancelledData {
  static constexpr std::string_view kType = event_type::kSessionCancelled;
  static constexpr std::string_view kDescription = "A signing session ended unused.";
  std::string contract_id;
  std::string session_id;
  std::string reason;
  std::string cancelled_at;
};
BOOST_DESCRIBE_STRUCT(SessionCancelledData, (), (contract_id, session_id, reason, cancelled_at))

struct SessionRefreshedData {
  static constexpr std::string_view kType = event_type::kSessionRefreshed;
  static constexpr std::string_view kDescription = "A hosted session's link was renewed.";
  std::string contract_id;
  std::string session_id;
  std::optional<std::string> token_sha256;
  std::string expires_at;
  std::string refreshed_at;
};
BOOST_DESCRIBE_STRUCT(SessionRefreshedData, (),
                      (contract_id, session_id, token_sha256, expires_at, refreshed_at))

struct SessionEmbedUrlIssuedData {
  static constexpr std::string_view kType = event_type::kSessionEmbedUrlIssued;
  static constexpr std::string_view kDescription =
      "A single-use URL that opens a hosted session inside the integrator's page was issued.";
  std::string contract_id;
  std::string session_id;
  std::string embed_token_sha256;
  std::string expires_at;
  std::string issued_at;
};
BOOST_DESCRIBE_STRUCT(SessionEmbedUrlIssuedData, (),
                      (contract_id, session_id, embed_token_sha256, expires_at, issued_at))

struct SessionEmbedOpenedData {
  static constexpr std::string_view kType = event_type::kSessionEmbedOpened;
  static constexpr std::string_view kDescription =
      "An embed URL was opened (and spent): the framed page holds a proof of its own.";
  std::string contract_id;
  std::string session_id;
  std::string embed_token_sha256;
  std::string page_token_sha256;
  std::string opened_at;
};
BOOST_DESCRIBE_STRUCT(SessionEmbedOpenedData, (),
                      (contract_id, session_id, embed_token_sha256, page_token_sha256, opened_at))

struct SignerCodeSentData {
  static constexpr std::string_view kType = event_type::kSignerCodeSent;
  static constexpr std::string_view kDescription =
      "A one-time code was e-mailed to the signer (the code itself is never stored).";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  int64_t code_number;
  std::string expires_at;
  std::string sent_at;
};
BOOST_DESCRIBE_STRUCT(SignerCodeSentData, (),
                      (contract_id, session_id, participant_id, code_number, expires_at, sent_at))

struct SignerAuthenticatedData {
  static constexpr std::string_view kType = event_type::kSignerAuthenticated;
  static constexpr std::string_view kDescription = "The signer proved who they are.";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  std::string method;
  int64_t authentication_number;
  std::string authenticated_at;
};
BOOST_DESCRIBE_STRUCT(SignerAuthenticatedData, (),
                      (contract_id, session_id, participant_id, method, authentication_number,
                       authenticated_at))

struct SignerAttemptFailedData {
  static constexpr std::string_view kType = event_type::kSignerAttemptFailed;
  static constexpr std::string_view kDescription = "A proof of the signer failed.";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  std::string method;
  std::string issue;
  int64_t failed_attempts;
  std::string failed_at;
};
BOOST_DESCRIBE_STRUCT(SignerAttemptFailedData, (),
                      (contract_id, session_id, participant_id, method, issue, failed_attempts,
                       failed_at))

struct SignerAuthenticationFailedData {
  static constexpr std::string_view kType = event_type::kSignerAuthenticationFailed;
  static constexpr std::string_view kDescription = "Too many proofs failed: the session is locked.";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  std::string method;
  int64_t failed_attempts;
  std::string failed_at;
};
BOOST_DESCRIBE_STRUCT(SignerAuthenticationFailedData, (),
                      (contract_id, session_id, participant_id, method, failed_attempts, failed_at))

struct SignerAttachmentUploadedData {
  static constexpr std::string_view kType = event_type::kSignerAttachmentUploaded;
  static constexpr std::string_view kDescription =
      "A signer uploaded a file to their signing session for an attachment field (the bytes are "
      "stored apart, named by sha256). It becomes the field's value when the signer signs.";
  std::string contract_id;
  std::string session_id;
  std::string participant_id;
  std::string sha256;
  std::optional<std::string> name;  // in the log; the Kafka topic leaves it out
  std::string media_type;
  int64_t size = 0;
  std::string uploaded_at;
};
BOOST_DESCRIBE_STRUCT(SignerAttachmentUploadedData, (),
                      (contract_id, session_id, participant_id, sha256, name, media_type, size,
                       uploaded_at))

struct TemplateImportedData {
  static constexpr std::string_view kType = template_event::kImported;
  static constexpr std::string_view kDescription =
      "A platform template was imported from its file (the whole template).";
  std::string template_id;
  std::string name;
  std::string description;
  std::vector<boost::json::object> versions;
};
BOOST_DESCRIBE_STRUCT(TemplateImportedData, (), (template_id, name, description, versions))

struct TemplateCreatedData {
  static constexpr std::string_view kType = template_event::kCreated;
  static constexpr std::string_view kDescription = "An organization created a template.";
  std::string template_id;
  std::string organization_id;
  std::string name;
  std::string description;
};
BOOST_DESCRIBE_STRUCT(TemplateCreatedData, (), (template_id, organization_id, name, description))

struct TemplateVersionAddedData {
  static constexpr std::string_view kType = template_event::kVersionAdded;
  static constexpr std::string_view kDescription =
      "A version was added to an organization's template.";
  std::string template_id;
  std::string organization_id;
  boost::json::object version;
};
BOOST_DESCRIBE_STRUCT(TemplateVersionAddedData, (), (template_id, organization_id, version))

struct TemplatePublishedData {
  static constexpr std::string_view kType = template_event::kPublished;
  static constexpr std::string_view kDescription = "A version became the one new contracts use.";
  std::string template_id;
  std::string organization_id;
  std::string template_version_id;
};
BOOST_DESCRIBE_STRUCT(TemplatePublishedData, (),
                      (template_id, organization_id, template_version_id))

struct TemplateArchivedData {
  static constexpr std::string_view kType = template_event::kArchived;
  static constexpr std::string_view kDescription = "A template was archived.";
  std::string template_id;
  std::string organization_id;
};
BOOST_DESCRIBE_STRUCT(TemplateArchivedData, (), (template_id, organization_id))

struct DocumentUploadedData {
  static constexpr std::string_view kType = kDocumentUploaded;
  static constexpr std::string_view kDescription = "An organization uploaded a PDF.";
  std::string document_id;
  std::string organization_id;
  std::string name;
  std::string sha256;
  std::string cleaned_sha256;
  int64_t size;
  int64_t cleaned_size;
  int64_t page_count;
  std::vector<boost::json::object> pages;
  std::vector<std::string> removed;
  std::vector<std::string> warnings;
  std::vector<boost::json::object> text_tags;
  std::vector<boost::json::object> form_fields;
  std::string uploaded_at;
  std::string uploaded_by;
  std::string expires_at;
};
BOOST_DESCRIBE_STRUCT(DocumentUploadedData, (),
                      (document_id, organization_id, name, sha256, cleaned_sha256, size,
                       cleaned_size, page_count, pages, removed, warnings, text_tags, form_fields,
                       uploaded_at, uploaded_by, expires_at))

struct DocumentDeletedData {
  static constexpr std::string_view kType = kDocumentDeleted;
  static constexpr std::string_view kDescription =
      "An unused upload was deleted at the end of its retention.";
  std::string document_id;
  std::string cleaned_sha256;
  std::string reason;
  std::string expires_at;
  std::string deleted_at;
};
BOOST_DESCRIBE_STRUCT(DocumentDeletedData, (),
                      (document_id, cleaned_sha256, reason, expires_at, deleted_at))

struct OrganizationContactSetData {
  static constexpr std::string_view kType = kOrganizationContactSet;
  static constexpr std::string_view kDescription = "An organization set its contact for e-mail.";
  std::string email;
  std::string name;
};
BOOST_DESCRIBE_STRUCT(OrganizationContactSetData, (), (email, name))

struct OrganizationSettingsSetData {
  static constexpr std::string_view kType = kOrganizationSettingsSet;
  static constexpr std::string_view kDescription =
      "An organization set the origins that may frame its signing pages and its branding.";
  std::vector<std::string> frame_origins;
  std::string accent_color;
  std::string logo_sha256;
};
BOOST_DESCRIBE_STRUCT(OrganizationSettingsSetData, (), (frame_origins, accent_color, logo_sha256))

struct BulkSendCreatedData {
  static constexpr std::string_view kType = event_type::kBulkSendCreated;
  static constexpr std::string_view kDescription =
      "A bulk send was asked for: one template to many recipients, the rows in a blob.";
  std::string bulk_send_id;
  std::string organization_id;
  std::string client_id;
  std::vector<std::string> permissions;
  std::string request_sha256;
  std::string template_id;
  std::string title;
  std::optional<boost::json::object> signing_settings;
  std::optional<boost::json::object> notifications;
  int64_t row_count;
  std::string rows_sha256;
  std::string created_at;
};
BOOST_DESCRIBE_STRUCT(BulkSendCreatedData, (),
                      (bulk_send_id, organization_id, client_id, permissions, request_sha256,
                       template_id, title, signing_settings, notifications, row_count, rows_sha256,
                       created_at))

struct BulkSendProgressedData {
  static constexpr std::string_view kType = event_type::kBulkSendProgressed;
  static constexpr std::string_view kDescription =
      "A bulk send got further: each of the rows since the last progress, with its contract "
      "({row, contractId}) or its error ({row, error: {code, message, details}}).";
  std::string bulk_send_id;
  std::string organization_id;
  int64_t processed;
  int64_t sent;
  int64_t failed;
  std::vector<boost::json::object> rows;
  std::string progressed_at;
};
BOOST_DESCRIBE_STRUCT(BulkSendProgressedData, (),
                      (bulk_send_id, organization_id, processed, sent, failed, rows, progressed_at))

struct BulkSendCancelledData {
  static constexpr std::string_view kType = event_type::kBulkSendCancelled;
  static constexpr std::string_view kDescription =
      "The integrator cancelled a bulk send: rows not yet sent will not be.";
  std::string bulk_send_id;
  std::string organization_id;
  std::string cancelled_at;
};
BOOST_DESCRIBE_STRUCT(BulkSendCancelledData, (), (bulk_send_id, organization_id, cancelled_at))

struct BulkSendCompletedData {
  static constexpr std::string_view kType = event_type::kBulkSendCompleted;
  static constexpr std::string_view kDescription =
      "A bulk send ended: every row sent or failed (state completed), or the rest not sent after "
      "a cancel (state cancelled).";
  std::string bulk_send_id;
  std::string organization_id;
  std::string state;
  int64_t row_count;
  int64_t sent;
  int64_t failed;
  int64_t not_sent;
  std::string completed_at;
};
BOOST_DESCRIBE_STRUCT(BulkSendCompletedData, (),
                      (bulk_send_id, organization_id, state, row_count, sent, failed, not_sent,
                       completed_at))

struct WebhookEndpointCreatedData {
  static constexpr std::string_view kType = "webhook_endpoint.created";
  static constexpr std::string_view kDescription =
      "A webhook endpoint was registered (its secret is kept apart, sealed).";
  std::string endpoint_id;
  std::string organization_id;
  std::string url;
  std::vector<std::string> event_types;
  std::string description;
  bool enabled;
  std::string created_at;
};
BOOST_DESCRIBE_STRUCT(WebhookEndpointCreatedData, (),
                      (endpoint_id, organization_id, url, event_types, description, enabled,
                       created_at))

struct WebhookEndpointUpdatedData {
  static constexpr std::string_view kType = "webhook_endpoint.updated";
  static constexpr std::string_view kDescription =
      "A webhook endpoint changed; only the changed members are present.";
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> event_types;
  std::optional<std::string> description;
  std::optional<bool> enabled;
  std::optional<std::string> disabled_reason;
  std::string updated_at;
};
BOOST_DESCRIBE_STRUCT(WebhookEndpointUpdatedData, (),
                      (url, event_types, description, enabled, disabled_reason, updated_at))

struct WebhookEndpointSecretRotatedData {
  static constexpr std::string_view kType = "webhook_endpoint.secret_rotated";
  static constexpr std::string_view kDescription = "A webhook endpoint's secret was rotated.";
  std::string rotated_at;
  std::string previous_secret_expires_at;
};
BOOST_DESCRIBE_STRUCT(WebhookEndpointSecretRotatedData, (),
                      (rotated_at, previous_secret_expires_at))

struct WebhookEndpointDeletedData {
  static constexpr std::string_view kType = "webhook_endpoint.deleted";
  static constexpr std::string_view kDescription = "A webhook endpoint was deleted.";
  std::string deleted_at;
};
BOOST_DESCRIBE_STRUCT(WebhookEndpointDeletedData, (), (deleted_at))

struct ClientCreatedData {
  static constexpr std::string_view kType = "client.created";
  static constexpr std::string_view kDescription =
      "An API client was created (its secret only as a hash).";
  std::string client_id;
  std::string organization_id;
  std::string name;
  std::vector<std::string> permissions;
  std::string secret_hash;
  std::string created_at;
};
BOOST_DESCRIBE_STRUCT(ClientCreatedData, (),
                      (client_id, organization_id, name, permissions, secret_hash, created_at))

struct TokenRevokedData {
  static constexpr std::string_view kType = "token.revoked";
  static constexpr std::string_view kDescription =
      "An access token was revoked; expiresAt is its expiry in seconds since the epoch.";
  std::string token_id;
  int64_t expires_at;
  std::string revoked_at;
};
BOOST_DESCRIBE_STRUCT(TokenRevokedData, (), (token_id, expires_at, revoked_at))

struct IdempotencyReservedData {
  static constexpr std::string_view kType = "idempotency.reserved";
  static constexpr std::string_view kDescription =
      "An Idempotency-Key was taken for a request; the id is the resource the request makes.";
  std::string request_sha256;
  std::optional<std::string> contract_id;
  std::optional<std::string> document_id;
  std::optional<std::string> template_id;
  std::optional<std::string> endpoint_id;
};
BOOST_DESCRIBE_STRUCT(IdempotencyReservedData, (),
                      (request_sha256, contract_id, document_id, template_id, endpoint_id))

struct IdempotencyCompletedData {
  static constexpr std::string_view kType = "idempotency.completed";
  static constexpr std::string_view kDescription =
      "The request of an Idempotency-Key was carried out.";
  int64_t version;
};
BOOST_DESCRIBE_STRUCT(IdempotencyCompletedData, (), (version))
// The events of a contract's stream, which Apply folds (contract_apply.cc).
using ContractEventData = boost::mp11::mp_list<
    ContractCreatedData, DataUpdatedData, TableDataUpdatedData, ParticipantsReplacedData,
    RoleBindingsUpdatedData, ContractPreparedData, ContractSentData, SignerCompletedData,
    SigningInProgressData, ContractCompletedData, SignerDeclinedData, ContractDeclinedData,
    EvidencePersistedData, ContractVoidedData, ContractExpiredData, ParticipantRemindedData,
    SessionCreatedData, SessionCancelledData, SessionRefreshedData, SessionEmbedUrlIssuedData,
    SessionEmbedOpenedData, SignerCodeSentData, SignerAuthenticatedData, SignerAttemptFailedData,
    SignerAuthenticationFailedData, SignerAttachmentUploadedData>;

// Every event type the log holds, for the schema catalog (domain/event_catalog.h).
using AllEventData = boost::mp11::mp_append<
    ContractEventData,
    boost::mp11::mp_list<
        TemplateImportedData, TemplateCreatedData, TemplateVersionAddedData, TemplatePublishedData,
        TemplateArchivedData, DocumentUploadedData, DocumentDeletedData, OrganizationContactSetData,
        OrganizationSettingsSetData, WebhookEndpointCreatedData, WebhookEndpointUpdatedData,
        WebhookEndpointSecretRotatedData, WebhookEndpointDeletedData, ClientCreatedData,
        TokenRevokedData, IdempotencyReservedData, IdempotencyCompletedData, BulkSendCreatedData,
        BulkSendProgressedData, BulkSendCancelledData, BulkSendCompletedData>>;

}  // namespace esign
