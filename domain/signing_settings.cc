#include "domain/signing_settings.h"

#include "base/json_read.h"
#include "base/time_text.h"

namespace esign {

const boost::json::object& DefaultSigningSettings() {
  static const boost::json::object defaults{{"expiresInDays", 30}, {"allowDecline", true}};
  return defaults;
}

bool AllowsDecline(const boost::json::object& settings) {
  const auto* allow = settings.if_contains("allowDecline");
  return allow == nullptr || !allow->is_bool() || allow->get_bool();
}

namespace {

constexpr int64_t kDefaultExpiresInDays = 30;

}  // namespace

std::optional<int64_t> ExpiryMicros(const boost::json::object& settings, std::string_view sent_at) {
  if (const auto* at = settings.if_contains("expiresAt"); at != nullptr && at->is_string()) {
    return ParseTimestampMicros(at->get_string());
  }
  const auto sent = ParseTimestampMicros(sent_at);
  if (!sent) return std::nullopt;
  int64_t days = kDefaultExpiresInDays;
  if (const auto* value = settings.if_contains("expiresInDays")) {
    days = AsInteger(*value).value_or(kDefaultExpiresInDays);
  }
  return *sent + days * kMicrosPerDay;
}

void CheckExpiresAt(const boost::json::object& settings, std::string_view path,
                    std::string_view now, Details& details) {
  const auto* at = settings.if_contains("expiresAt");
  if (at == nullptr || !at->is_string()) return;
  const auto expires = ParseTimestampMicros(at->get_string());
  const auto now_micros = ParseTimestampMicros(now);
  if (!expires || !now_micros) return;
  if (*expires <= *now_micros) {
    AddDetail(details, JoinPath(path, "expiresAt"), "must be in the future");
  } else if (*expires > *now_micros + kMaxExpiryDays * kMicrosPerDay) {
    AddDetail(details, JoinPath(path, "expiresAt"),
              "must be at most " + std::to_string(kMaxExpiryDays) + " days ahead");
  }
}

std::optional<boost::json::object> ReadSigningSettings(const boost::json::value& value,
                                                       const std::string& path,
                                                       std::string_view now, Details& details) {
  if (!value.is_object()) {
    AddDetail(details, path, "must be an object");
    return std::nullopt;
  }
  size_t problems = details.size();
  const auto& object = value.get_object();
  RejectUnknownMembers(object, path, {"expiresInDays", "expiresAt", "allowDecline"}, details);
  boost::json::object out = DefaultSigningSettings();
  if (const auto* days = Member(object, "expiresInDays")) {
    auto number = AsInteger(*days);
    if (!number || *number < 1 || *number > 365) {
      AddDetail(details, JoinPath(path, "expiresInDays"), "must be an integer 1..365");
    } else {
      out["expiresInDays"] = *number;
    }
  }
  if (const auto* at = Member(object, "expiresAt")) {
    const auto micros = at->is_string() ? ParseTimestampMicros(at->get_string()) : std::nullopt;
    if (!micros || std::string_view(at->get_string()).find('T') == std::string_view::npos) {
      AddDetail(details, JoinPath(path, "expiresAt"), "must be an RFC 3339 date-time");
    } else {
      out["expiresAt"] = FormatTimestamp(*micros);
      CheckExpiresAt(out, path, now, details);
    }
  }
  if (const auto* allow = Member(object, "allowDecline")) {
    if (!allow->is_bool()) {
      AddDetail(details, JoinPath(path, "allowDecline"), "must be a boolean");
    } else {
      out["allowDecline"] = allow->get_bool();
    }
  }
  if (details.size() != problems) return std::nullopt;
  return out;
}

}  // namespace esign
