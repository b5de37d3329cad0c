// The closed set of error codes of the service, and the error value every fallible call returns.
// domain/ knows no HTTP: the mapping from code to status lives in one table in http/.
#pragma once

#include <optional>
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
  kDocumentInvalid,        // not a PDF, or damaged beyond repair
  kDocumentEncrypted,      // a PDF that needs a password or is encrypted
  kDocumentLimitExceeded,  // more pages, objects, nesting or decoded bytes than allowed
  // Identity and access.
  kUnauthenticated,               // 401
  kInvalidClient,                 // 401
  kProviderSignatureInvalid,      // 401: a provider callback's HMAC or timestamp
  kSignerAuthenticationRequired,  // 401: the hosted signer has not proven who they are
  kSignerAuthenticationFailed,    // 401: a wrong or expired code
  kPermissionDenied,              // 403
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
  kBulkSendNotFound,
  kProviderNotFound,
  kDocumentNotFound,
  // State (409 / 412).
  kContractStateConflict,
  kStreamVersionConflict,
  kIdempotencyKeyReused,
  kPreconditionFailed,
  kSigningOutOfTurn,
  kSigningSessionStateConflict,
  kProviderCallbackReplayed,
  kReminderTooSoon,         // a participant was reminded less than an hour ago
  kSignerCodeTooSoon,       // a session's e-mail code was sent less than 30 seconds ago
  kSignerCodeLimitReached,  // a session's codes (or proofs) are used up
  kTemplateArchived,        // no new contract or version for an archived template
  // Signing links that are gone for good (410).
  kSigningSessionExpired,
  kSigningSessionCancelled,
  kSigningSessionGone,    // the contract was voided or expired
  kSigningSessionLocked,  // 423: too many wrong codes
  // Transport (405 / 413 / 415 / 429 / 503).
  kMethodNotAllowed,
  kPayloadTooLarge,
  kDocumentTooLarge,  // 413: an upload over --document-limit
  kUnsupportedMediaType,
  kRateLimited,
  kUnavailable,
  kStorageUnavailable,  // 503: the disk is full; nothing was stored, retry later
  kNotImplemented,      // 501: an operation whose capability is not built yet
  // Our own faults (500).
  kStorage,
  kCorruption,
  kInternal,
};

// The wire name, e.g. "CONTRACT_ROLE_BINDING_INVALID".
std::string_view ToString(ErrorCode code);
// The code of a wire name; nothing for a name no code has.
std::optional<ErrorCode> ErrorCodeNamed(std::string_view name);

// One offending input: a JSON path such as "participants[1].templateRoleId" and what is wrong.
struct ErrorDetail {
  std::string field;
  std::string issue;
  friend bool operator==(const ErrorDetail&, const ErrorDetail&) = default;
};

// The problems found in one input. Only the first kMaxKept are kept; the rest are counted, so a
// hostile body with a million bad items costs a counter, not a million messages (and the error
// body it answers stays small). size() counts every problem found, kept or not.
class Details {
 public:
  static constexpr size_t kMaxKept = 50;

  void push_back(ErrorDetail detail) {
    if (kept_.size() < kMaxKept) kept_.push_back(std::move(detail));
    ++found_;
  }
  size_t size() const { return found_; }
  bool empty() const { return found_ == 0; }
  const ErrorDetail& operator[](size_t index) const { return kept_[index]; }
  std::vector<ErrorDetail>::const_iterator begin() const { return kept_.begin(); }
  std::vector<ErrorDetail>::const_iterator end() const { return kept_.end(); }

  // The kept details, then one that says how many more were found.
  // NOLINTNEXTLINE(google-explicit-constructor): becomes Error::details wherever one is made
  operator std::vector<ErrorDetail>() const {
    std::vector<ErrorDetail> list = kept_;
    if (found_ > kept_.size()) list.push_back(ErrorDetail{"", MoreProblems(found_ - kept_.size())});
    return list;
  }

  // "and 3 more problems not shown".
  static std::string MoreProblems(size_t count);

 private:
  std::vector<ErrorDetail> kept_;
  size_t found_ = 0;
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
