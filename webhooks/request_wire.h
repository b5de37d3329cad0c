// The bytes of a webhook POST, written in one piece: byte for byte what Beast's request
// serializer sends for the same request (request line, Host, User-Agent, Content-Type, the
// delivery's headers in order, Content-Length, the body), without its buffer-sequence machinery,
// which took about a twentieth of a delivery's instructions. A header name or value holding CR,
// LF or NUL is refused (nothing the dispatcher makes holds one; a request must not be split).
// Pure function; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace esign::webhooks {

// `target`: the encoded path with its query; `host`: as in the URL.
std::optional<std::string> WebhookRequestBytes(
    std::string_view target, std::string_view host,
    const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body);

}  // namespace esign::webhooks
