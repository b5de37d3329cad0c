#include "domain/organization_settings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "domain/error.h"
#include "domain/event_codec.h"
#include "domain/event_data.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

constexpr size_t kMaxOriginLength = 255;

bool IsHostCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
}

// A DNS name or IPv4 address (letters, digits, '-' and '.', no empty label), or "[...]" with an
// IPv6 address's characters.
bool IsHost(std::string_view host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    return std::all_of(host.begin() + 1, host.end() - 1, [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '.';
    });
  }
  if (host.empty() || host.front() == '.' || host.back() == '.' ||
      host.find("..") != std::string_view::npos) {
    return false;
  }
  return std::all_of(host.begin(), host.end(), IsHostCharacter);
}

bool IsLoopbackHost(std::string_view host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

std::unexpected<Error> BadOrigin(std::string_view field) {
  return Fail(ErrorCode::kValidationFailed, "not an origin that may frame signing pages",
              std::string(field),
              "https://host[:port] (http:// only for localhost, 127.0.0.1 or [::1]), nothing "
              "after the host and port");
}

double Channel(int value) {
  const double c = value / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

bool IsHexColor(std::string_view text) {
  return text.size() == 7 && text[0] == '#' &&
         std::all_of(text.begin() + 1, text.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

Result<std::string> NormalizedFrameOrigin(std::string_view text, std::string_view field) {
  if (text.size() > kMaxOriginLength) return BadOrigin(field);
  const std::string origin = AsciiLower(text);
  const size_t scheme_end = origin.find("://");
  if (scheme_end == std::string::npos) return BadOrigin(field);
  const std::string scheme = origin.substr(0, scheme_end);
  std::string_view authority = std::string_view(origin).substr(scheme_end + 3);
  if (scheme != "https" && scheme != "http") return BadOrigin(field);
  std::string_view host = authority;
  std::string port;
  const size_t colon = authority.rfind(':');
  const size_t bracket = authority.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    port = std::string(authority.substr(colon + 1));
    const bool digits =
        !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
    if (!digits || std::stoi(port) < 1 || std::stoi(port) > 65535 || port.front() == '0') {
      return BadOrigin(field);
    }
  }
  if (!IsHost(host)) return BadOrigin(field);
  if (scheme == "http" && !IsLoopbackHost(host)) return BadOrigin(field);
  if ((scheme == "https" && port == "443") || (scheme == "http" && port == "80")) port.clear();
  return scheme + "://" + std::string(host) + (port.empty() ? "" : ":" + port);
}

Result<std::vector<std::string>> NormalizedFrameOrigins(const std::vector<std::string>& origins) {
  if (origins.size() > kMaxFrameOrigins) {
    return Fail(ErrorCode::kValidationFailed, "too many frame origins", "frameOrigins",
                "at most " + std::to_string(kMaxFrameOrigins));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < origins.size(); ++i) {
    auto origin = NormalizedFrameOrigin(origins[i], "frameOrigins[" + std::to_string(i) + "]");
    if (!origin) return std::unexpected(origin.error());
    if (std::find(out.begin(), out.end(), *origin) == out.end()) out.push_back(std::move(*origin));
  }
  return out;
}

double ContrastWithWhite(std::string_view color) {
  if (!IsHexColor(color)) return 1.0;
  const auto component = [&](size_t at) {
    return std::stoi(std::string(color.substr(at, 2)), nullptr, 16);
  };
  const double luminance = 0.2126 * Channel(component(1)) + 0.7152 * Channel(component(3)) +
                           0.0722 * Channel(component(5));
  return 1.05 / (luminance + 0.05);
}

Result<std::string> NormalizedAccentColor(std::string_view text, std::string_view field) {
  if (!IsHexColor(text)) {
    return Fail(ErrorCode::kValidationFailed, "not a colour", std::string(field), "#RRGGBB");
  }
  const std::string color = AsciiLower(text);
  const double ratio = ContrastWithWhite(color);
  if (ratio < kMinAccentContrast) {
    char shown[16];
    std::snprintf(shown, sizeof shown, "%.2f", ratio);
    return Fail(ErrorCode::kValidationFailed,
                "the accent colour is too light to read against white (contrast " +
                    std::string(shown) + ":1)",
                std::string(field),
                "a colour with a contrast of at least 4.5:1 against white (WCAG AA)");
  }
  return color;
}

// The event's struct (domain/event_data.h) writes and reads the members, with their names.
boost::json::object OrganizationSettingsData(const OrganizationSettings& settings) {
  return event_codec::WriteData(OrganizationSettingsSetData{
      settings.frame_origins, settings.accent_color, settings.logo_sha256});
}

OrganizationSettings OrganizationSettingsFrom(const boost::json::object& data) {
  auto read = event_codec::ReadData<OrganizationSettingsSetData>(data);
  if (!read) return {};
  return {std::move(read->frame_origins), std::move(read->accent_color),
          std::move(read->logo_sha256)};
}

}  // namespace esign
