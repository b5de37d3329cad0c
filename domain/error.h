// The closed set of error codes of the service, and the error value every fallible call returns.
// domain/ knows no HTTP: the mapping from code to status lives in one table in http/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace esign {

enum class ErrorCode {
  // Input and rules of the contract family (400 unless noted).
  kValidationFailed,
  kContractRoleBindingInvalid,
  kContractRoleBindingUnknownRole,
  kContractRoleBindingDuplicate,
  kContractRoleBindingInvalidRouting,
  kContractRoleBindingRequiredRoleUnbound,
  kInvalidNotificationSettings,
  kTemplateInvalid,
  kInvalidCursor,
  // Identity and access.
  kUnauthenticated,           // 401
  kInvalidClient,             // 401
  kProviderSignatureInvalid,  // 401: a provider callback's HMAC or timestamp
  kPermissionDenied,          // 403
  // Missing resources (404).
  kNotFound,
  kContractNotFound,
  kTemplateNotFound,
  kTemplateVersionNotFound,
  kParticipantNotFound,
  kContractSignedDocumentNotAvailable,
  kArtifactRevisionNotFound,
  kWebhookEndpointNotFound,
  kWebhookDeliveryNotFound,
  kSigningSessionNotFound,
  kProviderNotFound,
  // State (409 / 412).
  kContractStateConflict,
  kStreamVersionConflict,
  kIdempotencyKeyReused,
  kPreconditionFailed,
  kSigningOutOfTurn,
  kSigningSessionStateConflict,
  kProviderCallbackReplayed,
  // Signing links that are gone for good (410).
  kSigningSessionExpired,
  kSigningSessionCancelled,
  // Transport (405 / 413 / 415 / 429 / 503).
  kMethodNotAllowed,
  kPayloadTooLarge,
  kUnsupportedMediaType,
  kRateLimited,
  kUnavailable,
  kNotImplemented,  // 501: an operation whose capability is not built yet
  // Our own faults (500).
  kStorage,
  kCorruption,
  kInternal,
};

// The wire name, e.g. "CONTRACT_ROLE_BINDING_INVALID".
std::string_view ToString(ErrorCode code);

// One offending input: a JSON path such as "participants[1].templateRoleId" and what is wrong.
struct ErrorDetail {
  std::string field;
  std::string issue;
  friend bool operator==(const ErrorDetail&, const ErrorDetail&) = default;
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::vector<ErrorDetail> details;

  static Error Of(ErrorCode code, std::string message) {
    return Error{code, std::move(message), {}};
  }
  static Error Of(ErrorCode code, std::string message, std::string field, std::string issue) {
    return Error{code, std::move(message), {ErrorDetail{std::move(field), std::move(issue)}}};
  }
};

}  // namespace esign
