#include "app/ledger_trust.h"

#include <chrono>
#include <string_view>

#include "documents/http_fetch.h"
#include "eventstore/ledger_key.h"

namespace esign::app {

std::string PublicKeyRouteUrl(const std::string& url) {
  std::string_view base(url);
  if (base.ends_with(kPublicKeyRoute)) return url;
  while (base.ends_with('/')) base.remove_suffix(1);
  return std::string(base) + kPublicKeyRoute;
}

Result<std::string> ReadLedgerKeyFile(const std::string& path) {
  Result<std::string> text = ReadWholeFile(path);
  if (!text) return text;
  return eventstore::TrustedLedgerKeyPem(*text);
}

Result<std::string> FetchLedgerKey(const std::string& url) {
  const std::string route = PublicKeyRouteUrl(url);
  Result<std::string> body = documents::FetchHttp({.url = route,
                                                   .headers = {"Accept: application/json"},
                                                   .timeout = std::chrono::seconds(10),
                                                   .what = route});
  if (!body) return body;
  return eventstore::TrustedLedgerKeyPem(*body);
}

}  // namespace esign::app
