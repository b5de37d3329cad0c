#include "http/log_redaction.h"

#include <array>

namespace esign::http {

std::string RedactedPath(std::string_view path) {
  static constexpr std::array<std::string_view, 2> kTokenPrefixes = {"/sign/",
                                                                     "/api/v1/hosted-signing/"};
  for (std::string_view prefix : kTokenPrefixes) {
    if (!path.starts_with(prefix) || path.size() == prefix.size()) continue;
    const std::string_view rest = path.substr(prefix.size());
    const size_t slash = rest.find('/');
    return std::string(prefix) + "{token}" +
           std::string(slash == std::string_view::npos ? "" : rest.substr(slash));
  }
  return std::string(path);
}

}  // namespace esign::http
