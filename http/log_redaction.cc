#include "http/log_redaction.h"

#include <array>

namespace esign::http {

std::string RedactedPath(std::string_view path) {
  // Looked for anywhere, not only at the start: a request target may be in absolute form
  // ("http://host/sign/TOKEN") or carry extra slashes ("//sign/TOKEN"), and still holds a token.
  static constexpr std::array<std::string_view, 2> kTokenMarkers = {"/sign/", "/hosted-signing/"};
  std::string out(path);
  for (std::string_view marker : kTokenMarkers) {
    for (size_t at = out.find(marker); at != std::string::npos; at = out.find(marker, at + 1)) {
      const size_t start = at + marker.size();
      size_t end = out.find('/', start);
      if (end == std::string::npos) end = out.size();
      if (end == start || out.compare(start, end - start, "{token}") == 0) continue;
      out.replace(start, end - start, "{token}");
    }
  }
  return out;
}

}  // namespace esign::http
