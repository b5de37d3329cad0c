// The one error body of the API and the one table from error code to HTTP status.
//   {"error":{"code":"...","message":"...","details":[{"field":"...","issue":"..."}],
//    "requestId":"..."}}
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <boost/beast/http/status.hpp>

#include "domain/error.h"
#include "http/request_handler.h"

namespace esign::http {

boost::beast::http::status StatusOf(ErrorCode code);

std::string ErrorBody(const Error& error, std::string_view request_id);

// Texts that may echo a request (a path, a key, a parameter name) are cut to these many bytes
// in any answer, so an answer never grows with what a client sends.
inline constexpr size_t kMaxMessageBytes = 512;
inline constexpr size_t kMaxDetailTextBytes = 256;
// `text` cut to at most `max_bytes` at a UTF-8 character boundary, with "..." when cut.
std::string BoundedText(std::string_view text, size_t max_bytes);

// The WWW-Authenticate challenge of a 401 code (RFC 9110 section 11.6.1), naming the scheme the
// caller must use there: Bearer for access tokens, Basic for the token endpoint's client
// credentials, ProviderSignature for provider callbacks, SignerProof for the hosted signer's
// proof. Empty for a code that is not a 401.
std::string_view AuthenticationChallenge(ErrorCode code);

// The challenge of a bearer token that was presented and refused (RFC 6750 section 3.1), its
// error_description `description` (the error body's message), with any character RFC 6750 does
// not allow there replaced by a blank.
std::string InvalidTokenChallenge(std::string_view description);

// A complete response for `error`: status from the table, JSON body, content type, and the
// headers the code calls for (WWW-Authenticate on a 401, Retry-After on STORAGE_UNAVAILABLE).
Response ErrorResponse(const Error& error, std::string_view request_id, unsigned http_version,
                       bool keep_alive);

}  // namespace esign::http
