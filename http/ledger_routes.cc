#include "http/ledger_routes.h"

#include <charconv>
#include <string>
#include <string_view>

#include "base/base64.h"
#include "base/hex.h"
#include "eventstore/ledger_key.h"
#include "eventstore/tree_head_timestamp.h"

namespace esign::http {
namespace {

namespace json = boost::json;
using boost::beast::http::verb;

// A tree size as a query parameter: decimal digits only, at most 2^64 - 1.
Result<uint64_t> TreeSizeParameter(const ApiRequest& request, std::string_view name) {
  const std::optional<std::string_view> text = request.Query(name);
  if (!text) {
    return Fail(ErrorCode::kValidationFailed, std::string(name) + " is required", std::string(name),
                "missing");
  }
  uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [at, ec] = std::from_chars(text->data(), end, value);
  if (text->empty() || ec != std::errc() || at != end || (*text)[0] == '-' || (*text)[0] == '+') {
    return Fail(ErrorCode::kValidationFailed, std::string(name) + " must be a tree size (digits)",
                std::string(name), "not a non-negative integer");
  }
  return value;
}

json::object PublishedTreeHead(const eventstore::SignedTreeHead& head) {
  json::object document = json::parse(eventstore::SerializeTreeHead(head)).as_object();
  eventstore::AddTreeHeadTimestamp(head, document);
  return document;
}

ApiResult ConsistencyAnswer(const eventstore::Ledger& ledger, const ApiRequest& request) {
  Result<uint64_t> from = TreeSizeParameter(request, "from");
  if (!from) return Fail(from.error());
  Result<uint64_t> to = TreeSizeParameter(request, "to");
  if (!to) return Fail(to.error());
  const std::optional<eventstore::SignedTreeHead> newest = ledger.NewestTreeHead();
  const uint64_t signed_size = newest ? newest->size : 0;
  if (*to > signed_size) {
    return Fail(ErrorCode::kValidationFailed,
                "to is beyond the newest signed tree head, of size " + std::to_string(signed_size),
                "to", "greater than " + std::to_string(signed_size));
  }
  if (*from > *to) {
    return Fail(ErrorCode::kValidationFailed, "from must not exceed to", "from", "greater than to");
  }
  Result<std::vector<eventstore::Hash>> proof = ledger.ConsistencyProof(*from, *to);
  if (!proof) return Fail(proof.error());
  json::array hashes;
  hashes.reserve(proof->size());
  for (const eventstore::Hash& hash : *proof) hashes.emplace_back(ToHex(hash));
  return ApiResponse::Json(200, json::object{{"from", *from}, {"to", *to}, {"proof", hashes}});
}

}  // namespace

Status AddLedgerRoutes(ApiRoutes& routes, const eventstore::Ledger& ledger) {
  Result<eventstore::LedgerPublicKey> key = eventstore::DescribeLedgerKey(ledger.PublicKeyPem());
  if (!key) return Fail(key.error());
  // The key never changes while the service runs.
  const std::string key_document = json::serialize(eventstore::LedgerKeyDocument(*key));
  routes.Add(verb::get, "/api/v1/ledger/public-key",
             RouteSpec{.operation_id = "getLedgerPublicKey",
                       .auth = Auth::kNone,
                       .handler = [key_document](const ApiRequest&) -> ApiResult {
                         return ApiResponse{200, key_document, "application/json", {}};
                       },
                       .execution = Execution::kInline,
                       .limit_by_address = true});
  routes.Add(verb::get, "/api/v1/ledger/tree-head",
             RouteSpec{.operation_id = "getLedgerTreeHead",
                       .auth = Auth::kNone,
                       .handler = [&ledger](const ApiRequest&) -> ApiResult {
                         const auto head = ledger.NewestTreeHead();
                         if (!head) {
                           return Fail(ErrorCode::kNotFound, "no tree head has been signed yet");
                         }
                         return ApiResponse::Json(200, PublishedTreeHead(*head));
                       },
                       .execution = Execution::kInline,
                       .limit_by_address = true});
  routes.Add(verb::get, "/api/v1/ledger/consistency",
             RouteSpec{.operation_id = "getLedgerConsistencyProof",
                       .auth = Auth::kNone,
                       .handler =
                           [&ledger](const ApiRequest& request) {
                             return ConsistencyAnswer(ledger, request);
                           },
                       .limit_by_address = true});
  return {};
}

}  // namespace esign::http
