#include "app/cli_commands.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "base/base64.h"
#include "commands/organization_commands.h"
#include "commands/template_commands.h"
#include "documents/logo_image.h"
#include "domain/json_parse.h"

namespace esign::app {
namespace {

constexpr std::string_view kDemoOrganization = "org_demo";
constexpr std::string_view kDemoOrganizationName = "Demo organization";

eventstore::Actor AdminActor() { return eventstore::Actor{.client_id = "contractd-admin"}; }

Result<std::string> StringField(const boost::json::object& request, std::string_view key) {
  const auto* value = request.if_contains(key);
  if (!value || !value->is_string()) {
    return Fail(ErrorCode::kValidationFailed, std::string(key) + " must be a string",
                std::string(key), "required, a string");
  }
  return std::string(value->as_string());
}

ErrorCode CodeFromString(std::string_view text) {
  for (int i = 0; i <= static_cast<int>(ErrorCode::kInternal); ++i) {
    const auto code = static_cast<ErrorCode>(i);
    if (ToString(code) == text) return code;
  }
  return ErrorCode::kInternal;
}

}  // namespace

Result<boost::json::object> AdminCommands::Run(const boost::json::object& request) {
  auto command = StringField(request, "command");
  if (!command) return Fail(command.error());
  if (*command == "clients.create") return CreateClient(request);
  if (*command == "templates.import") return ImportTemplate(request);
  if (*command == "organizations.set") return SetOrganization(request);
  if (*command == "backup") return BackUp(request);
  if (*command == "ping") return boost::json::object{};
  return Fail(ErrorCode::kValidationFailed, "unknown admin command '" + *command + "'", "command",
              "one of: clients.create, templates.import, organizations.set, backup, ping");
}

std::string AdminCommands::HandleLine(std::string_view line) {
  auto parsed = ParseJson(line);
  if (!parsed) return EncodeAdminResponse(Fail(parsed.error()));
  if (!parsed->is_object()) {
    return EncodeAdminResponse(
        Fail(ErrorCode::kValidationFailed, "an admin request is a JSON object"));
  }
  return EncodeAdminResponse(Run(parsed->as_object()));
}

Result<boost::json::object> AdminCommands::CreateClient(const boost::json::object& request) {
  commands::NewClient client;
  auto org = StringField(request, "organizationId");
  if (!org) return Fail(org.error());
  client.organization_id = std::move(*org);
  auto name = StringField(request, "name");
  if (!name) return Fail(name.error());
  client.name = std::move(*name);
  const auto* permissions = request.if_contains("permissions");
  if (!permissions || !permissions->is_array()) {
    return Fail(ErrorCode::kValidationFailed, "permissions must be an array of strings",
                "permissions", "required, an array of strings");
  }
  for (const auto& p : permissions->as_array()) {
    if (!p.is_string()) {
      return Fail(ErrorCode::kValidationFailed, "permissions must be an array of strings",
                  "permissions", "required, an array of strings");
    }
    client.permissions.emplace_back(p.as_string());
  }
  auto created = clients_.Create(client, AdminActor());
  if (!created) return Fail(created.error());
  // So that the new client can ask for a token as soon as the command returns.
  if (wait_applied_) wait_applied_(store_.Size());
  return commands::CreatedClientJson(*created);
}

Result<boost::json::object> AdminCommands::ImportTemplate(const boost::json::object& request) {
  auto file = StringField(request, "file");
  if (!file) return Fail(file.error());
  auto text = StringField(request, "text");
  if (!text) return Fail(text.error());
  auto imported = commands::ImportTemplateFromText(store_, *text, *file, AdminActor());
  if (!imported) return Fail(imported.error());
  if (wait_applied_) wait_applied_(store_.Size());
  return boost::json::object{
      {"templateId", imported->template_id},
      {"file", imported->file},
      {"changed", imported->changed},
  };
}

Result<boost::json::object> AdminCommands::BackUp(const boost::json::object& request) {
  auto target = StringField(request, "to");
  if (!target) return Fail(target.error());
  if (!backup_) return Fail(ErrorCode::kNotImplemented, "no backup here");
  return backup_(*target);
}

std::string EncodeAdminResponse(const Result<boost::json::object>& result) {
  if (result) return boost::json::serialize(boost::json::object{{"ok", true}, {"result", *result}});
  boost::json::array details;
  for (const auto& d : result.error().details) {
    details.push_back(boost::json::object{{"field", d.field}, {"issue", d.issue}});
  }
  return boost::json::serialize(boost::json::object{
      {"ok", false},
      {"error", boost::json::object{{"code", ToString(result.error().code)},
                                    {"message", result.error().message},
                                    {"details", std::move(details)}}},
  });
}

Result<boost::json::object> DecodeAdminResponse(std::string_view line) {
  boost::system::error_code ec;
  boost::json::value value = boost::json::parse(line, ec);
  const boost::json::object* object = !ec && value.is_object() ? &value.as_object() : nullptr;
  const boost::json::value* ok = object ? object->if_contains("ok") : nullptr;
  if (!ok || !ok->is_bool()) {
    return Fail(ErrorCode::kInternal, "malformed answer on the admin socket");
  }
  if (ok->as_bool()) {
    const auto* result = object->if_contains("result");
    if (!result || !result->is_object()) {
      return Fail(ErrorCode::kInternal, "malformed answer on the admin socket");
    }
    return result->as_object();
  }
  const auto* error = object->if_contains("error");
  if (!error || !error->is_object()) {
    return Fail(ErrorCode::kInternal, "malformed answer on the admin socket");
  }
  const auto& e = error->as_object();
  Error out;
  if (const auto* code = e.if_contains("code"); code && code->is_string()) {
    out.code = CodeFromString(code->as_string());
  }
  if (const auto* message = e.if_contains("message"); message && message->is_string()) {
    out.message = std::string(message->as_string());
  }
  if (const auto* details = e.if_contains("details"); details && details->is_array()) {
    for (const auto& d : details->as_array()) {
      const auto* field = d.is_object() ? d.as_object().if_contains("field") : nullptr;
      const auto* issue = d.is_object() ? d.as_object().if_contains("issue") : nullptr;
      if (field && field->is_string() && issue && issue->is_string()) {
        out.details.push_back({std::string(field->as_string()), std::string(issue->as_string())});
      }
    }
  }
  return Fail(std::move(out));
}

int ExitCodeOf(const Error& error) {
  return error.code == ErrorCode::kValidationFailed || error.code == ErrorCode::kTemplateInvalid
             ? 2
             : 1;
}

Result<std::optional<commands::CreatedClient>> CreateDemoClientIfNone(
    commands::ClientCommandHandler& clients, const projections::ClientDirectory& directory,
    eventstore::EventStore& store) {
  if (directory.ClientCount() > 0) return std::nullopt;
  const eventstore::Actor contractd{.client_id = "contractd"};
  // A name or address given before the first start (organizations set) stays as it was.
  auto contact = commands::ReadOrganizationContact(store, kDemoOrganization);
  if (!contact) return Fail(contact.error());
  if (contact->name.empty()) {
    if (auto named = commands::SetOrganizationContact(
            store, kDemoOrganization, contact->owner ? contact->owner->email : std::string(),
            kDemoOrganizationName, contractd);
        !named) {
      return Fail(named.error());
    }
  }
  commands::NewClient demo{.organization_id = std::string(kDemoOrganization),
                           .name = "Demo client"};
  for (const auto permission : commands::kPermissions) demo.permissions.emplace_back(permission);
  auto created = clients.Create(demo, contractd);
  if (!created) return Fail(created.error());
  return std::optional<commands::CreatedClient>(std::move(*created));
}

namespace {

// `text` as one shell word: as it is when it holds only characters no shell reads specially,
// single-quoted otherwise.
std::string ShellWord(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("/._-:,+=@%").find(c) != std::string_view::npos;
  });
  if (plain) return std::string(text);
  std::string word = "'";
  for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

}  // namespace

std::string NewClientHint(const std::filesystem::path& data_dir) {
  std::string permissions;
  for (const auto p : commands::kPermissions) {
    permissions.append(permissions.empty() ? "" : ",").append(p);
  }
  return "contractd: clients exist already, so no demo client was created; a lost client secret "
         "cannot be shown again, but a new client can be made with:\n"
         "contractd clients create --data-dir " +
         ShellWord(std::filesystem::absolute(data_dir).lexically_normal().string()) + " --org " +
         std::string(kDemoOrganization) + " --permissions " + permissions + " --name " +
         ShellWord("Demo client") + "\n";
}

std::string DemoClientBanner(const commands::CreatedClient& client, std::string_view host,
                             uint16_t port) {
  // A wildcard address is reachable on loopback; an IPv6 literal needs brackets in a URL.
  std::string address(host);
  if (address.empty() || address == "0.0.0.0") address = "127.0.0.1";
  if (address == "::") address = "::1";
  if (address.find(':') != std::string::npos) address = "[" + address + "]";
  const std::string body = boost::json::serialize(
      boost::json::object{{"clientId", client.client_id}, {"clientSecret", client.client_secret}});
  std::string scope;
  for (const auto& p : client.permissions) scope += (scope.empty() ? "" : " ") + p;
  std::ostringstream out;
  out << "contractd: ===================== DEMO CLIENT (shown only once) =====================\n"
      << "contractd: no client existed, so a demo client was created with every permission\n"
      << "contractd:   organizationId " << client.organization_id << "\n"
      << "contractd:   clientId       " << client.client_id << "\n"
      << "contractd:   clientSecret   " << client.client_secret << "\n"
      << "contractd:   permissions    " << scope << "\n"
      << "contractd: obtain an access token with:\n"
      << "curl -s -X POST http://" << address << ":" << port
      << "/api/v1/auth/machine-token -H 'Content-Type: application/json' -d '" << body << "'\n"
      << "contractd: ===========================================================================\n";
  return out.str();
}

}  // namespace esign::app

namespace esign::app {

// Members given change, members absent stay: email, name (the contact); frameOrigins (an array),
// accentColor ("" for the default), logo (base64 of a PNG or JPEG, with logoMediaType; "" for
// none) (the settings).
Result<boost::json::object> AdminCommands::SetOrganization(const boost::json::object& request) {
  auto org = StringField(request, "organizationId");
  if (!org) return Fail(org.error());
  auto profile = commands::ReadOrganization(store_, *org);
  if (!profile) return Fail(profile.error());
  const auto given = [&](std::string_view key) -> std::optional<std::string> {
    const auto* member = request.if_contains(key);
    if (member == nullptr || !member->is_string()) return std::nullopt;
    return std::string(member->as_string());
  };
  const auto text = [&](std::string_view key, std::string current) {
    return given(key).value_or(std::move(current));
  };
  if (request.contains("email") || request.contains("name")) {
    const std::string email =
        text("email", profile->contact.owner ? profile->contact.owner->email : "");
    const std::string name = text("name", profile->contact.name);
    if (auto set = commands::SetOrganizationContact(store_, *org, email, name, AdminActor());
        !set) {
      return Fail(set.error());
    }
  }
  OrganizationSettings settings = profile->settings;
  if (const auto* origins = request.if_contains("frameOrigins"); origins && origins->is_array()) {
    std::vector<std::string> texts;
    for (const auto& origin : origins->get_array()) {
      texts.emplace_back(origin.is_string() ? origin.get_string() : "");
    }
    auto normalized = NormalizedFrameOrigins(texts);
    if (!normalized) return Fail(normalized.error());
    settings.frame_origins = std::move(*normalized);
  }
  if (const std::optional<std::string> color = given("accentColor")) {
    if (color->empty()) {
      settings.accent_color.clear();
    } else {
      auto normalized = NormalizedAccentColor(*color, "accentColor");
      if (!normalized) return Fail(normalized.error());
      settings.accent_color = std::move(*normalized);
    }
  }
  if (const std::optional<std::string> logo = given("logo")) {
    settings.logo_sha256.clear();
    if (!logo->empty()) {
      const std::optional<std::string> bytes = Base64Decode(*logo);
      if (!bytes) return Fail(ErrorCode::kValidationFailed, "the logo is not base64", "logo", "");
      auto png = documents::NormalizedLogo(*bytes, text("logoMediaType", ""));
      if (!png) return Fail(png.error());
      auto sha256 = store_.blobs().Put(*png);
      if (!sha256) return Fail(sha256.error());
      settings.logo_sha256 = std::move(*sha256);
    }
  }
  if (auto set = commands::SetOrganizationSettings(store_, *org, *profile, settings, AdminActor());
      !set) {
    return Fail(set.error());
  }
  auto now = commands::ReadOrganization(store_, *org);
  if (!now) return Fail(now.error());
  boost::json::object out = OrganizationSettingsData(now->settings);
  out["organizationId"] = *org;
  out["email"] = now->contact.owner ? now->contact.owner->email : "";
  out["name"] = now->contact.name;
  return out;
}

}  // namespace esign::app
