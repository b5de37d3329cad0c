#include "http/error_response.h"

#include <boost/json.hpp>

namespace esign::http {

namespace beast_http = boost::beast::http;

beast_http::status StatusOf(ErrorCode code) {
  using S = beast_http::status;
  switch (code) {
    case ErrorCode::kValidationFailed:
    case ErrorCode::kContractRoleBindingInvalid:
    case ErrorCode::kContractRoleBindingUnknownRole:
    case ErrorCode::kContractRoleBindingDuplicate:
    case ErrorCode::kContractRoleBindingInvalidRouting:
    case ErrorCode::kContractRoleBindingRequiredRoleUnbound:
    case ErrorCode::kInvalidNotificationSettings:
    case ErrorCode::kTemplateInvalid:
    case ErrorCode::kInvalidCursor:
    case ErrorCode::kDocumentInvalid:
    case ErrorCode::kDocumentEncrypted:
    case ErrorCode::kDocumentLimitExceeded:
      return S::bad_request;
    case ErrorCode::kUnauthenticated:
    case ErrorCode::kInvalidClient:
    case ErrorCode::kProviderSignatureInvalid:
    case ErrorCode::kSignerAuthenticationRequired:
    case ErrorCode::kSignerAuthenticationFailed:
      return S::unauthorized;
    case ErrorCode::kPermissionDenied:
      return S::forbidden;
    case ErrorCode::kNotFound:
    case ErrorCode::kContractNotFound:
    case ErrorCode::kTemplateNotFound:
    case ErrorCode::kTemplateVersionNotFound:
    case ErrorCode::kParticipantNotFound:
    case ErrorCode::kContractSignedDocumentNotAvailable:
    case ErrorCode::kArtifactRevisionNotFound:
    case ErrorCode::kWebhookEndpointNotFound:
    case ErrorCode::kWebhookDeliveryNotFound:
    case ErrorCode::kBulkSendNotFound:
    case ErrorCode::kSigningSessionNotFound:
    case ErrorCode::kProviderNotFound:
    case ErrorCode::kDocumentNotFound:
      return S::not_found;
    case ErrorCode::kContractStateConflict:
    case ErrorCode::kStreamVersionConflict:
    case ErrorCode::kIdempotencyKeyReused:
    case ErrorCode::kSigningOutOfTurn:
    case ErrorCode::kSigningSessionStateConflict:
    case ErrorCode::kProviderCallbackReplayed:
    case ErrorCode::kReminderTooSoon:
    case ErrorCode::kSignerCodeTooSoon:
    case ErrorCode::kSignerCodeLimitReached:
    case ErrorCode::kTemplateArchived:
      return S::conflict;
    case ErrorCode::kSigningSessionExpired:
    case ErrorCode::kSigningSessionCancelled:
    case ErrorCode::kSigningSessionGone:
      return S::gone;
    case ErrorCode::kSigningSessionLocked:
      return S::locked;
    case ErrorCode::kPreconditionFailed:
      return S::precondition_failed;
    case ErrorCode::kMethodNotAllowed:
      return S::method_not_allowed;
    case ErrorCode::kPayloadTooLarge:
    case ErrorCode::kDocumentTooLarge:
      return S::payload_too_large;
    case ErrorCode::kUnsupportedMediaType:
      return S::unsupported_media_type;
    case ErrorCode::kRateLimited:
      return S::too_many_requests;
    case ErrorCode::kUnavailable:
    case ErrorCode::kStorageUnavailable:
      return S::service_unavailable;
    case ErrorCode::kNotImplemented:
      return S::not_implemented;
    case ErrorCode::kStorage:
    case ErrorCode::kCorruption:
    case ErrorCode::kInternal:
      return S::internal_server_error;
  }
  return S::internal_server_error;
}

namespace {

constexpr std::string_view kStorageUnavailableMessage =
    "the service cannot store anything now (its storage is full); nothing of this request was "
    "stored; retry later";
// How long a client waits before retrying a write refused for a full disk: the store tries to
// resume about once a second, an operator needs longer to free space.
constexpr std::string_view kStorageRetryAfterSeconds = "5";
constexpr std::string_view kUnavailableRetryAfterSeconds = "2";

}  // namespace

std::string BoundedText(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string_view AuthenticationChallenge(ErrorCode code) {
  switch (code) {
    case ErrorCode::kUnauthenticated:
      return R"(Bearer realm="contract-api")";
    case ErrorCode::kInvalidClient:
      return R"(Basic realm="contract-api")";
    case ErrorCode::kProviderSignatureInvalid:
      return R"(ProviderSignature realm="provider-callbacks")";
    case ErrorCode::kSignerAuthenticationRequired:
    case ErrorCode::kSignerAuthenticationFailed:
      return R"(SignerProof realm="hosted-signing")";
    default:
      return {};
  }
}

std::string InvalidTokenChallenge(std::string_view description) {
  std::string challenge =
      R"(Bearer realm="contract-api", error="invalid_token", error_description=")";
  for (char c : BoundedText(description, kMaxMessageBytes)) {
    // RFC 6750 section 3: %x20-21 / %x23-5B / %x5D-7E, so no quote and no backslash.
    const bool allowed = c >= 0x20 && c <= 0x7E && c != '"' && c != '\\';
    challenge.push_back(allowed ? c : ' ');
  }
  challenge.push_back('"');
  return challenge;
}

std::string ErrorBody(const Error& error, std::string_view request_id) {
  boost::json::array details;
  // A list made by Details is at most kMaxKept plus its own count; a longer one is cut here.
  const bool cut = error.details.size() > Details::kMaxKept + 1;
  const size_t shown = cut ? Details::kMaxKept : error.details.size();
  for (size_t i = 0; i < shown; ++i) {
    const ErrorDetail& d = error.details[i];
    details.push_back(boost::json::object{{"field", BoundedText(d.field, kMaxDetailTextBytes)},
                                          {"issue", BoundedText(d.issue, kMaxDetailTextBytes)}});
  }
  if (cut) {
    details.push_back(boost::json::object{
        {"field", ""}, {"issue", Details::MoreProblems(error.details.size() - shown)}});
  }
  // Our own faults never leak internals: the message is replaced by a generic one. So is a full
  // disk's, whose storage message names files of the data directory.
  const bool internal = StatusOf(error.code) == beast_http::status::internal_server_error;
  const bool storage = error.code == ErrorCode::kStorageUnavailable;
  std::string message = internal  ? std::string("internal error")
                        : storage ? std::string(kStorageUnavailableMessage)
                                  : BoundedText(error.message, kMaxMessageBytes);
  boost::json::object body{
      {"code", ToString(error.code)},
      {"message", std::move(message)},
      {"details", internal || storage ? boost::json::array{} : std::move(details)},
      {"requestId", request_id},
  };
  return boost::json::serialize(boost::json::object{{"error", std::move(body)}});
}

Response ErrorResponse(const Error& error, std::string_view request_id, unsigned http_version,
                       bool keep_alive) {
  Response response{StatusOf(error.code), http_version};
  response.set(beast_http::field::content_type, "application/json");
  response.keep_alive(keep_alive);
  response.body() = ErrorBody(error, request_id);
  if (error.code == ErrorCode::kStorageUnavailable) {
    response.set(beast_http::field::retry_after, kStorageRetryAfterSeconds);
  } else if (error.code == ErrorCode::kUnavailable) {
    // A standby of the replicated log, a writer between two epochs, a queue that is full: each
    // passes within seconds.
    response.set(beast_http::field::retry_after, kUnavailableRetryAfterSeconds);
  }
  if (auto challenge = AuthenticationChallenge(error.code); !challenge.empty()) {
    response.set(beast_http::field::www_authenticate, challenge);
  }
  response.prepare_payload();
  return response;
}

}  // namespace esign::http
