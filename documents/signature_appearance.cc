#include "documents/signature_appearance.h"

#include <cctype>

namespace esign::documents {
namespace {

// "2026-11-21 10:04 UTC" when the time is RFC 3339 in UTC, else empty.
std::string MinuteInUtc(std::string_view rfc3339) {
  static constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd";
  if (rfc3339.size() < kPattern.size()) return {};
  for (size_t i = 0; i < kPattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(rfc3339[i]);
    const bool ok = kPattern[i] == 'd'   ? std::isdigit(c) != 0
                    : kPattern[i] == 'T' ? (c == 'T' || c == 't' || c == ' ')
                                         : rfc3339[i] == kPattern[i];
    if (!ok) return {};
  }
  const bool utc = rfc3339.ends_with('Z') || rfc3339.ends_with('z') ||
                   rfc3339.ends_with("+00:00") || rfc3339.ends_with("-00:00");
  if (!utc) return {};
  return std::string(rfc3339.substr(0, 10)) + " " + std::string(rfc3339.substr(11, 5)) + " UTC";
}

}  // namespace

std::string SignatureCaption(std::string_view signer_name, std::string_view signed_at) {
  // The name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: a right-to-left name
  // must not pull the time after it into its run (the digits would read in reverse order).
  std::string caption = "Signed by \u2068" + std::string(signer_name) + "\u2069";
  if (signed_at.empty()) return caption;
  const std::string minute = MinuteInUtc(signed_at);
  caption += " \u00b7 ";
  caption += minute.empty() ? std::string(signed_at) : minute;
  return caption;
}

}  // namespace esign::documents
