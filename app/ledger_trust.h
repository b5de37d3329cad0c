// The key verify-bundle trusts (docs/ledger-tool.md, "Trust"): read from a file (PEM, JWK, or
// the answer of GET /api/v1/ledger/public-key) or fetched from the service's public-key route.
// Fetching over the network is only as trustworthy as the connection: the tool prints the key's
// fingerprint so that an auditor can compare it with one obtained out of band.
// Thread safety: pure functions; FetchLedgerKey does one blocking HTTP request.
#pragma once

#include <string>

#include "app/file_text.h"
#include "domain/result.h"

namespace esign::app {

inline constexpr char kPublicKeyRoute[] = "/api/v1/ledger/public-key";

// `url` itself when it already names the route, else `url` (an origin, perhaps with a trailing
// slash) followed by kPublicKeyRoute.
std::string PublicKeyRouteUrl(const std::string& url);

// Canonical PEM of the trusted key. kStorage when the file cannot be read, kUnavailable when the
// service cannot be reached or answers other than 200 (64 KiB at most, 10 s), kValidationFailed
// when what was read is no Ed25519 key.
Result<std::string> ReadLedgerKeyFile(const std::string& path);
Result<std::string> FetchLedgerKey(const std::string& url);

}  // namespace esign::app
