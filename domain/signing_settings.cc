#include "domain/signing_settings.h"

#include "base/json_read.h"

namespace esign {

const boost::json::object& DefaultSigningSettings() {
  static const boost::json::object defaults{{"expiresInDays", 30}, {"allowDecline", true}};
  return defaults;
}

bool AllowsDecline(const boost::json::object& settings) {
  const auto* allow = settings.if_contains("allowDecline");
  return allow == nullptr || !allow->is_bool() || allow->get_bool();
}

std::optional<boost::json::object> ReadSigningSettings(const boost::json::value& value,
                                                       const std::string& path, Details& details) {
  if (!value.is_object()) {
    AddDetail(details, path, "must be an object");
    return std::nullopt;
  }
  size_t problems = details.size();
  const auto& object = value.get_object();
  RejectUnknownMembers(object, path, {"expiresInDays", "allowDecline"}, details);
  boost::json::object out = DefaultSigningSettings();
  if (const auto* days = Member(object, "expiresInDays")) {
    auto number = AsInteger(*days);
    if (!number || *number < 1 || *number > 365) {
      AddDetail(details, JoinPath(path, "expiresInDays"), "must be an integer 1..365");
    } else {
      out["expiresInDays"] = *number;
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
