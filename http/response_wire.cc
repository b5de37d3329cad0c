#include "http/response_wire.h"

namespace esign::http {

bool HasPlainWireForm(const Response& response) { return !response.chunked(); }

std::string WireBytes(const Response& response) {
  const std::string_view reason = response.reason();
  size_t size = 13 + reason.size() + 2 + 2 + response.body().size();
  for (const auto& field : response) size += field.name_string().size() + field.value().size() + 4;
  std::string out;
  out.reserve(size);
  // "HTTP/X.Y ### ", as Beast writes it.
  const unsigned version = response.version();
  const unsigned code = response.result_int();
  out.append("HTTP/");
  out.push_back(static_cast<char>('0' + version / 10));
  out.push_back('.');
  out.push_back(static_cast<char>('0' + version % 10));
  out.push_back(' ');
  out.push_back(static_cast<char>('0' + code / 100));
  out.push_back(static_cast<char>('0' + (code / 10) % 10));
  out.push_back(static_cast<char>('0' + code % 10));
  out.push_back(' ');
  out.append(reason);
  out.append("\r\n");
  for (const auto& field : response) {
    out.append(field.name_string());
    out.append(": ");
    out.append(field.value());
    out.append("\r\n");
  }
  out.append("\r\n");
  out.append(response.body());
  return out;
}

}  // namespace esign::http
