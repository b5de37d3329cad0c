#include "domain/notifications.h"

#include <algorithm>
#include <array>
#include <set>
#include <span>
#include <string>

#include "base/json_read.h"

namespace esign {
namespace {

enum class SettingKind { kBool, kText, kRecipients, kInteger };

struct SettingSpec {
  std::string_view name;
  SettingKind kind;
  int64_t min = 0;  // text: minimum length; integer: minimum value
  int64_t max = 0;  // text: maximum length; integer: maximum value
};

struct EventSpec {
  std::string_view key;
  std::span<const SettingSpec> settings;
};

constexpr SettingSpec kEnabled{"enabled", SettingKind::kBool};
constexpr SettingSpec kRecipients{"recipients", SettingKind::kRecipients};

constexpr std::array kSentSettings{kEnabled, SettingSpec{"subject", SettingKind::kText, 1, 200},
                                   SettingSpec{"message", SettingKind::kText, 0, 2000}};
constexpr std::array kSignerCompletedSettings{kEnabled, kRecipients};
constexpr std::array kCompletedSettings{kEnabled, kRecipients,
                                        SettingSpec{"attachSignedPdf", SettingKind::kBool}};
constexpr std::array kDeclinedSettings{kEnabled, kRecipients};
constexpr std::array kVoidedSettings{kEnabled, kRecipients};
constexpr std::array kExpiredSettings{kEnabled, kRecipients};
constexpr std::array kReminderSettings{kEnabled,
                                       SettingSpec{"firstAfterDays", SettingKind::kInteger, 1, 60},
                                       SettingSpec{"intervalDays", SettingKind::kInteger, 1, 30},
                                       SettingSpec{"maxCount", SettingKind::kInteger, 0, 10}};

constexpr std::array kCatalog{
    EventSpec{"contract.sent", kSentSettings},
    EventSpec{"signer.completed", kSignerCompletedSettings},
    EventSpec{"contract.completed", kCompletedSettings},
    EventSpec{"contract.declined", kDeclinedSettings},
    EventSpec{"contract.voided", kVoidedSettings},
    EventSpec{"contract.expired", kExpiredSettings},
    EventSpec{"reminder", kReminderSettings},
};

constexpr std::array<std::string_view, 4> kRecipientGroups{"owner", "signers", "viewers",
                                                           "copy_recipients"};

const EventSpec* FindEvent(std::string_view key) {
  for (const auto& event : kCatalog) {
    if (event.key == key) return &event;
  }
  return nullptr;
}

const SettingSpec* FindSetting(const EventSpec& event, std::string_view name) {
  for (const auto& setting : event.settings) {
    if (setting.name == name) return &setting;
  }
  return nullptr;
}

std::string SupportedList(const EventSpec& event) {
  std::string out;
  for (const auto& setting : event.settings) {
    if (!out.empty()) out += ", ";
    out += setting.name;
  }
  return out;
}

void CheckSetting(const SettingSpec& spec, const boost::json::value& value, const std::string& path,
                  Details& details) {
  switch (spec.kind) {
    case SettingKind::kBool:
      if (!value.is_bool()) AddDetail(details, path, "must be a boolean");
      return;
    case SettingKind::kText: {
      if (!value.is_string()) {
        AddDetail(details, path, "must be a string");
        return;
      }
      auto size = static_cast<int64_t>(value.get_string().size());
      if (size < spec.min || size > spec.max) {
        AddDetail(details, path,
                  "length must be " + std::to_string(spec.min) + ".." + std::to_string(spec.max));
      }
      return;
    }
    case SettingKind::kInteger: {
      auto number = AsInteger(value);
      if (!number) {
        AddDetail(details, path, "must be an integer");
      } else if (*number < spec.min || *number > spec.max) {
        AddDetail(details, path,
                  "must be " + std::to_string(spec.min) + ".." + std::to_string(spec.max));
      }
      return;
    }
    case SettingKind::kRecipients: {
      if (!value.is_array()) {
        AddDetail(details, path, "must be an array of recipient groups");
        return;
      }
      std::set<std::string_view> seen;
      const auto& array = value.get_array();
      for (size_t i = 0; i < array.size(); ++i) {
        const auto& item = array[i];
        bool known = item.is_string() &&
                     std::find(kRecipientGroups.begin(), kRecipientGroups.end(),
                               std::string_view(item.get_string())) != kRecipientGroups.end();
        if (!known) {
          AddDetail(details, IndexPath(path, i),
                    "must be one of owner, signers, viewers, copy_recipients");
        } else if (!seen.insert(std::string_view(item.get_string())).second) {
          AddDetail(details, IndexPath(path, i), "duplicate recipient group");
        }
      }
      return;
    }
  }
}

boost::json::object BuildPlatformDefaults() {
  boost::json::object out;
  out["contract.sent"] = {
      {"enabled", true}, {"subject", "Please review and sign: {{title}}"}, {"message", ""}};
  out["signer.completed"] = {{"enabled", true}, {"recipients", boost::json::array{"owner"}}};
  out["contract.completed"] = {
      {"enabled", true},
      {"recipients", boost::json::array{"owner", "signers", "viewers", "copy_recipients"}},
      {"attachSignedPdf", true}};
  out["contract.declined"] = {{"enabled", true},
                              {"recipients", boost::json::array{"owner", "signers"}}};
  // Everyone who was asked to act learns that they need not; the owner, that nobody will.
  out["contract.voided"] = {{"enabled", true},
                            {"recipients", boost::json::array{"owner", "signers", "viewers"}}};
  out["contract.expired"] = {{"enabled", true},
                             {"recipients", boost::json::array{"owner", "signers"}}};
  out["reminder"] = {
      {"enabled", true}, {"firstAfterDays", 3}, {"intervalDays", 3}, {"maxCount", 3}};
  return out;
}

}  // namespace

void CheckNotificationSettings(const boost::json::value& value, std::string_view path,
                               Details& details) {
  if (value.is_null()) return;
  if (!value.is_object()) {
    AddDetail(details, std::string(path), "must be an object keyed by notification event");
    return;
  }
  for (const auto& [key, settings] : value.get_object()) {
    std::string event_path = JoinPath(path, key);
    const EventSpec* event = FindEvent(key);
    if (event == nullptr) {
      AddDetail(details, event_path,
                "unknown notification event; known: contract.sent, signer.completed, "
                "contract.completed, contract.declined, contract.voided, contract.expired, "
                "reminder");
      continue;
    }
    if (settings.is_null()) continue;  // null inherits, like an omitted event
    if (!settings.is_object()) {
      AddDetail(details, event_path, "must be an object of settings");
      continue;
    }
    for (const auto& [name, setting_value] : settings.get_object()) {
      std::string setting_path = JoinPath(event_path, name);
      const SettingSpec* spec = FindSetting(*event, name);
      if (spec == nullptr) {
        AddDetail(details, setting_path,
                  "not supported by " + std::string(key) + "; supported: " + SupportedList(*event));
        continue;
      }
      if (!setting_value.is_null()) CheckSetting(*spec, setting_value, setting_path, details);
    }
  }
}

Status ValidateNotificationSettings(const boost::json::value& value, std::string_view path) {
  Details details;
  CheckNotificationSettings(value, path, details);
  if (details.empty()) return {};
  return Fail(Error{ErrorCode::kInvalidNotificationSettings, "invalid notification settings",
                    std::move(details)});
}

const boost::json::object& PlatformNotificationDefaults() {
  static const boost::json::object defaults = BuildPlatformDefaults();
  return defaults;
}

boost::json::object MergeNotificationSettings(const boost::json::object& base,
                                              const boost::json::object& over) {
  boost::json::object out = base;
  for (const auto& [key, settings] : over) {
    if (!settings.is_object()) continue;
    boost::json::value& target = out[key];
    if (!target.is_object()) target = boost::json::object();
    for (const auto& [name, value] : settings.get_object()) {
      if (!value.is_null()) target.get_object()[name] = value;
    }
  }
  return out;
}

boost::json::object ResolveNotifications(const boost::json::object& platform,
                                         const boost::json::object& organization,
                                         const boost::json::object& template_defaults,
                                         const boost::json::object& contract_override) {
  boost::json::object out;
  const boost::json::object* layers[] = {&platform, &organization, &template_defaults,
                                         &contract_override};
  // Walk the catalog rather than the layers, so the snapshot has a stable shape and order and
  // nothing outside the catalog leaks into it.
  for (const auto& event : kCatalog) {
    boost::json::object resolved;
    for (const auto& setting : event.settings) {
      const boost::json::value* chosen = nullptr;
      for (const auto* layer : layers) {
        const auto* settings = layer->if_contains(event.key);
        if (settings == nullptr || !settings->is_object()) continue;
        const auto* value = settings->get_object().if_contains(setting.name);
        if (value != nullptr && !value->is_null()) chosen = value;
      }
      if (chosen != nullptr) resolved[setting.name] = *chosen;
    }
    out[event.key] = std::move(resolved);
  }
  return out;
}

}  // namespace esign
