// The opaque strings clients send back: list cursors (projections/cursor.h), access tokens
// (http/auth_tokens.h, then the authenticator), and the asOf and list query parameters that go
// with them. The first byte chooses the decoder; the rest is the string. A string that decodes
// must survive a round trip; everything else must be an error value, never a crash.
// The keys are fixed, so corpus/fuzz_cursor_token holds genuine cursors and tokens
// (tests/fuzz/make_seeds.py makes them the way the service does).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/auth_authenticator.h"
#include "http/auth_tokens.h"
#include "projections/client_directory.h"
#include "projections/contract_as_of.h"
#include "projections/cursor.h"
#include "projections/list_query.h"

namespace esign {
namespace {

constexpr std::string_view kTokenKey = "fuzz-token-key-0123456789abcdef!";
constexpr std::string_view kCursorKey = "fuzz-cursor-key-0123456789abcdef";
constexpr std::string_view kListing = "fuzz-listing";

// "a=1&b=2" as the pairs the API handler hands to a route (no percent-decoding needed here).
std::vector<std::pair<std::string, std::string>> QueryPairs(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  while (!text.empty()) {
    const size_t amp = text.find('&');
    const std::string_view part = text.substr(0, amp);
    const size_t eq = part.find('=');
    pairs.emplace_back(std::string(part.substr(0, eq)),
                       eq == std::string_view::npos ? "" : std::string(part.substr(eq + 1)));
    if (amp == std::string_view::npos) break;
    text.remove_prefix(amp + 1);
  }
  return pairs;
}

void Cursor(std::string_view text) {
  static const projections::CursorCodec codec{std::string(kCursorKey)};
  // The listing's fingerprint is fixed, so the corpus can hold cursors made outside the code.
  const std::string fingerprint(kListing);
  auto position = codec.Decode(text, fingerprint);
  if (!position) {
    if (position.error().code != ErrorCode::kInvalidCursor) __builtin_trap();
    return;
  }
  // A cursor that checks out carries a position that encodes and checks out again.
  auto again = codec.Decode(codec.Encode(*position, fingerprint), fingerprint);
  if (!again || *again != *position) __builtin_trap();
}

void Token(std::string_view text) {
  static const auto codec = std::move(*http::TokenCodec::Create(kTokenKey));
  static const ManualClock clock(int64_t{1795000000} * 1000000);
  static const projections::ClientDirectory directory(clock);
  static const http::TokenAuthenticator authenticator(*codec, directory, clock);
  auto claims = codec->Verify(text);
  if (claims) {
    auto again = codec->Verify(codec->Issue(*claims));
    if (!again || again->client_id != claims->client_id ||
        again->ScopeString() != claims->ScopeString() || again->expires_at != claims->expires_at) {
      __builtin_trap();
    }
  } else if (claims.error().code != ErrorCode::kUnauthenticated) {
    __builtin_trap();
  }
  // No client exists: whatever the token, the authenticator refuses it.
  if (authenticator.Authenticate(text)) __builtin_trap();
}

}  // namespace
}  // namespace esign

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      esign::Cursor(text);
      break;
    case 1:
      esign::Token(text);
      break;
    case 2:
      (void)esign::projections::ParseLogPoint(text);
      break;
    default:
      (void)esign::projections::ParseListQuery(esign::QueryPairs(text));
      break;
  }
  return 0;
}
