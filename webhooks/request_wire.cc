#include "webhooks/request_wire.h"

namespace esign::webhooks {
namespace {

using std::string_view_literals::operator""sv;

bool Splits(std::string_view text) { return text.find_first_of("\r\n\0"sv) != text.npos; }

void AppendField(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append(": ").append(value).append("\r\n");
}

}  // namespace

std::optional<std::string> WebhookRequestBytes(
    std::string_view target, std::string_view host,
    const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body) {
  if (Splits(target) || Splits(host) || target.find(' ') != target.npos) return std::nullopt;
  std::string out;
  out.reserve(256 + target.size() + body.size());
  out.append("POST ").append(target).append(" HTTP/1.1\r\n");
  AppendField(out, "Host", host);
  AppendField(out, "User-Agent", "contractd-webhooks/1");
  AppendField(out, "Content-Type", "application/json");
  for (const auto& [name, value] : headers) {
    if (Splits(name) || Splits(value) || name.empty()) return std::nullopt;
    AppendField(out, name, value);
  }
  AppendField(out, "Content-Length", std::to_string(body.size()));
  out.append("\r\n").append(body);
  return out;
}

}  // namespace esign::webhooks
