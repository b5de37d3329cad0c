// What the access log may not show. Signing links carry their bearer credential in the path
// (/sign/{token}, /embed/{token}, /api/v1/hosted-signing/{token}/...): a log line with the token
// would let anyone who reads the log sign in the signer's place, so the token is replaced by
// "{token}".
//
// The path is redacted as a server or a proxy might read it, not only as our router does: after
// percent-decoding (repeatedly: %252F is a slash to a second decoder; a path still encoded after
// four rounds is not shown at all), with the markers matched in any case and with matrix
// parameters ("hosted-signing;x"), backslashes as slashes, on every request, routed or not.
// The logged path is the decoded one, with bytes outside printable ASCII (and "%") escaped again,
// so a log line is always ASCII and one line.
#pragma once

#include <string>
#include <string_view>

namespace esign::http {

// `path` (in any form; a query, if any, included) with the segment after every "sign" or
// "hosted-signing" segment replaced by "{token}", and the value of every query or matrix parameter
// whose name ends in "token" or "secret" replaced by "{redacted}".
std::string RedactedPath(std::string_view path);

}  // namespace esign::http
