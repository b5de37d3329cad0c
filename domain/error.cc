#include "domain/error.h"

namespace esign {

std::string_view ToString(ErrorCode code) {
  switch (code) {
    case ErrorCode::kValidationFailed:
      return "VALIDATION_FAILED";
    case ErrorCode::kContractRoleBindingInvalid:
      return "CONTRACT_ROLE_BINDING_INVALID";
    case ErrorCode::kContractRoleBindingUnknownRole:
      return "CONTRACT_ROLE_BINDING_UNKNOWN_ROLE";
    case ErrorCode::kContractRoleBindingDuplicate:
      return "CONTRACT_ROLE_BINDING_DUPLICATE";
    case ErrorCode::kContractRoleBindingInvalidRouting:
      return "CONTRACT_ROLE_BINDING_INVALID_ROUTING";
    case ErrorCode::kContractRoleBindingRequiredRoleUnbound:
      return "CONTRACT_ROLE_BINDING_REQUIRED_ROLE_UNBOUND";
    case ErrorCode::kInvalidNotificationSettings:
      return "INVALID_NOTIFICATION_SETTINGS";
    case ErrorCode::kTemplateInvalid:
      return "TEMPLATE_INVALID";
    case ErrorCode::kInvalidCursor:
      return "INVALID_CURSOR";
    case ErrorCode::kDocumentInvalid:
      return "DOCUMENT_INVALID";
    case ErrorCode::kDocumentEncrypted:
      return "DOCUMENT_ENCRYPTED";
    case ErrorCode::kDocumentLimitExceeded:
      return "DOCUMENT_LIMIT_EXCEEDED";
    case ErrorCode::kUnauthenticated:
      return "UNAUTHENTICATED";
    case ErrorCode::kInvalidClient:
      return "INVALID_CLIENT";
    case ErrorCode::kProviderSignatureInvalid:
      return "PROVIDER_SIGNATURE_INVALID";
    case ErrorCode::kPermissionDenied:
      return "PERMISSION_DENIED";
    case ErrorCode::kNotFound:
      return "NOT_FOUND";
    case ErrorCode::kContractNotFound:
      return "CONTRACT_NOT_FOUND";
    case ErrorCode::kTemplateNotFound:
      return "TEMPLATE_NOT_FOUND";
    case ErrorCode::kTemplateVersionNotFound:
      return "TEMPLATE_VERSION_NOT_FOUND";
    case ErrorCode::kParticipantNotFound:
      return "PARTICIPANT_NOT_FOUND";
    case ErrorCode::kContractSignedDocumentNotAvailable:
      return "CONTRACT_SIGNED_DOCUMENT_NOT_AVAILABLE";
    case ErrorCode::kArtifactRevisionNotFound:
      return "ARTIFACT_REVISION_NOT_FOUND";
    case ErrorCode::kWebhookEndpointNotFound:
      return "WEBHOOK_ENDPOINT_NOT_FOUND";
    case ErrorCode::kWebhookDeliveryNotFound:
      return "WEBHOOK_DELIVERY_NOT_FOUND";
    case ErrorCode::kBulkSendNotFound:
      return "BULK_SEND_NOT_FOUND";
    case ErrorCode::kSigningSessionNotFound:
      return "SIGNING_SESSION_NOT_FOUND";
    case ErrorCode::kProviderNotFound:
      return "PROVIDER_NOT_FOUND";
    case ErrorCode::kDocumentNotFound:
      return "DOCUMENT_NOT_FOUND";
    case ErrorCode::kContractStateConflict:
      return "CONTRACT_STATE_CONFLICT";
    case ErrorCode::kStreamVersionConflict:
      return "STREAM_VERSION_CONFLICT";
    case ErrorCode::kIdempotencyKeyReused:
      return "IDEMPOTENCY_KEY_REUSED";
    case ErrorCode::kPreconditionFailed:
      return "PRECONDITION_FAILED";
    case ErrorCode::kSigningOutOfTurn:
      return "SIGNING_OUT_OF_TURN";
    case ErrorCode::kSigningSessionStateConflict:
      return "SIGNING_SESSION_STATE_CONFLICT";
    case ErrorCode::kProviderCallbackReplayed:
      return "PROVIDER_CALLBACK_REPLAYED";
    case ErrorCode::kTemplateArchived:
      return "TEMPLATE_ARCHIVED";
    case ErrorCode::kSigningSessionExpired:
      return "SIGNING_SESSION_EXPIRED";
    case ErrorCode::kSigningSessionCancelled:
      return "SIGNING_SESSION_CANCELLED";
    case ErrorCode::kSigningSessionGone:
      return "SIGNING_SESSION_GONE";
    case ErrorCode::kReminderTooSoon:
      return "REMINDER_TOO_SOON";
    case ErrorCode::kSignerCodeTooSoon:
      return "SIGNER_CODE_TOO_SOON";
    case ErrorCode::kSignerCodeLimitReached:
      return "SIGNER_CODE_LIMIT_REACHED";
    case ErrorCode::kSignerAuthenticationRequired:
      return "SIGNER_AUTHENTICATION_REQUIRED";
    case ErrorCode::kSignerAuthenticationFailed:
      return "SIGNER_AUTHENTICATION_FAILED";
    case ErrorCode::kSigningSessionLocked:
      return "SIGNING_SESSION_LOCKED";
    case ErrorCode::kMethodNotAllowed:
      return "METHOD_NOT_ALLOWED";
    case ErrorCode::kPayloadTooLarge:
      return "PAYLOAD_TOO_LARGE";
    case ErrorCode::kDocumentTooLarge:
      return "DOCUMENT_TOO_LARGE";
    case ErrorCode::kUnsupportedMediaType:
      return "UNSUPPORTED_MEDIA_TYPE";
    case ErrorCode::kRateLimited:
      return "RATE_LIMITED";
    case ErrorCode::kUnavailable:
      return "UNAVAILABLE";
    case ErrorCode::kStorageUnavailable:
      return "STORAGE_UNAVAILABLE";
    case ErrorCode::kNotImplemented:
      return "NOT_IMPLEMENTED";
    case ErrorCode::kStorage:
      return "STORAGE_ERROR";
    case ErrorCode::kCorruption:
      return "CORRUPTION";
    case ErrorCode::kInternal:
      return "INTERNAL";
  }
  return "INTERNAL";
}

std::string Details::MoreProblems(size_t count) {
  return "and " + std::to_string(count) + " more problem" + (count == 1 ? "" : "s") + " not shown";
}

std::optional<ErrorCode> ErrorCodeNamed(std::string_view name) {
  for (int code = 0; code <= static_cast<int>(ErrorCode::kInternal); ++code) {
    if (ToString(static_cast<ErrorCode>(code)) == name) return static_cast<ErrorCode>(code);
  }
  return std::nullopt;
}

}  // namespace esign
