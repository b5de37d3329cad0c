// What the access log may not show. Signing links carry their bearer credential in the path
// (/sign/{token}, /api/v1/hosted-signing/{token}/...): a log line with the token would let anyone
// who reads the log sign in the signer's place, so the token is replaced by "{token}".
#pragma once

#include <string>
#include <string_view>

namespace esign::http {

// `path` (without the query, in any form) with every segment after "/sign/" or
// "/hosted-signing/" replaced by "{token}".
std::string RedactedPath(std::string_view path);

}  // namespace esign::http
