// Provider callbacks (http/provider_callback_routes.h) through the service's API handler
// (fuzz_service.h): the signature check of X-Provider-Timestamp and X-Provider-Signature, then
// the body's reader. The first byte chooses who signs:
//   0  the provider, rightly: the rest is the body, signed at the service's time
//   1  the input: the rest is "<timestamp>\n<signature>\n<body>"
//   2  the provider's secret, but for another provider id
// "$SESSION" in the body stands for the open provider session of fuzz_service.h, so that seeds
// reach the signing commands (the first callback that completes or declines it finishes the
// contract; later ones are duplicates). A callback is answered 200, 400, 401, 404 or 409, never
// with a crash or a 500.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_service.h"
#include "http/provider_callback_routes.h"

namespace {

// The next line of `text` (without its '\n'), removed from it.
std::string_view TakeLine(std::string_view& text) {
  const size_t end = text.find('\n');
  const std::string_view line = text.substr(0, end);
  text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace beast_http = boost::beast::http;
  using esign::fuzz::FuzzService;
  if (size == 0) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string_view rest(input);
  FuzzService& service = FuzzService::Instance();
  std::string body_text;
  for (size_t at = 0;;) {  // "$SESSION" replaced
    const size_t found = input.find("$SESSION", at);
    body_text.append(input, at, found == std::string::npos ? std::string::npos : found - at);
    if (found == std::string::npos) break;
    body_text += service.provider_session_id();
    at = found + 8;
  }
  rest = body_text;
  std::string provider = FuzzService::kProviderId;
  std::string timestamp = std::to_string(FuzzService::kNowSeconds);
  std::string signature;
  switch (data[0] % 3) {
    case 1:
      timestamp = std::string(TakeLine(rest));
      signature = std::string(TakeLine(rest));
      break;
    case 2:
      provider = "prv_other";
      signature = esign::http::ProviderSignature(FuzzService::kProviderSecret, timestamp, rest);
      break;
    default:
      signature = esign::http::ProviderSignature(FuzzService::kProviderSecret, timestamp, rest);
      break;
  }
  esign::http::Request request{beast_http::verb::post, "/api/v1/provider-callbacks/" + provider,
                               11};
  request.set(beast_http::field::content_type, "application/json");
  // Beast refuses header values with control characters at parse time; set() does not check.
  if (timestamp.find_first_of("\r\n") != std::string::npos ||
      signature.find_first_of("\r\n") != std::string::npos) {
    return 0;
  }
  request.set("X-Provider-Timestamp", timestamp);
  request.set("X-Provider-Signature", signature);
  request.body() = std::string(rest);
  request.prepare_payload();
  const esign::http::Response response = service.Handle(std::move(request));
  if (response.result_int() >= 500) __builtin_trap();
  return 0;
}
