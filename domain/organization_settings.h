// What an organization sets for its signers' pages (DESIGN 23): the origins allowed to frame its
// embedded signing pages, and its branding (an accent colour and a logo, kept as a blob). Set by
// `contractd organizations set` and PATCH /api/v1/organization, recorded as
// organization.settings_set in the stream organization-<id>; the latest event holds, whole.
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign {

inline constexpr std::string_view kOrganizationSettingsSet = "organization.settings_set";
inline constexpr size_t kMaxFrameOrigins = 10;
// WCAG 2.x AA for normal text: white text on the accent colour, and the accent colour as text
// on white, both need this contrast ratio.
inline constexpr double kMinAccentContrast = 4.5;

struct OrganizationSettings {
  std::vector<std::string> frame_origins;  // normalized, distinct, at most kMaxFrameOrigins
  std::string accent_color;                // "#rrggbb" (lower case), or empty: the default
  std::string logo_sha256;                 // the re-encoded PNG's blob, or empty: none

  bool operator==(const OrganizationSettings&) const = default;
};

// An origin that may frame signing pages, normalized: "https://host[:port]" in lower case
// without a default port, or "http://" for a loopback host (localhost, 127.0.0.1, [::1]) only.
// Nothing after the authority: no path, query, fragment, user or wildcard. kValidationFailed
// (field `field`) otherwise.
Result<std::string> NormalizedFrameOrigin(std::string_view text, std::string_view field);

// Each origin normalized (field "frameOrigins[i]" in an error), repeats dropped, at most
// kMaxFrameOrigins.
Result<std::vector<std::string>> NormalizedFrameOrigins(const std::vector<std::string>& origins);

// The contrast ratio (WCAG 2.x, 1 to 21) between `#rrggbb` and white.
double ContrastWithWhite(std::string_view color);

// "#RRGGBB" or "#rrggbb" with at least kMinAccentContrast against white, in lower case;
// kValidationFailed (field `field`) otherwise, saying the ratio it has.
Result<std::string> NormalizedAccentColor(std::string_view text, std::string_view field);

// The event data {frameOrigins, accentColor, logoSha256}, and back; data that does not read gives
// the defaults.
boost::json::object OrganizationSettingsData(const OrganizationSettings& settings);
OrganizationSettings OrganizationSettingsFrom(const boost::json::object& data);

}  // namespace esign
