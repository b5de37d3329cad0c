#include "http/plain_target.h"

namespace esign::http {
namespace {

// RFC 3986 unreserved characters: valid in a path segment as they are, never percent-decoded.
bool IsUnreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

}  // namespace

bool IsPlainPathTarget(std::string_view target) {
  if (target.empty() || target.front() != '/') return false;
  for (size_t i = 1; i < target.size(); ++i) {
    const char c = target[i];
    // "//" is left to the general parse, which has its own reading of a leading empty segment.
    if (c == '/' ? target[i - 1] == '/' : !IsUnreserved(c)) return false;
  }
  return true;
}

}  // namespace esign::http
