#include "domain/contract_commands.h"

#include <initializer_list>
#include <utility>

#include "base/json_read.h"
#include "domain/json_util.h"

namespace esign {
namespace {

// Copies the named members into their slots and everything else into `unknown`.
void Split(const boost::json::object& body,
           std::initializer_list<std::pair<std::string_view, boost::json::value*>> slots,
           boost::json::object& unknown) {
  for (const auto& [key, value] : body) {
    bool known = false;
    for (const auto& [name, slot] : slots) {
      if (name == key) {
        *slot = value;
        known = true;
      }
    }
    if (!known) unknown[key] = value;
  }
}

Result<std::string> Text(const boost::json::object& body, std::string_view key) {
  const auto* value = Member(body, key);
  if (value == nullptr) return std::string();
  if (!value->is_string()) {
    return Fail(ErrorCode::kValidationFailed, "invalid command", std::string(key),
                "must be a string");
  }
  return std::string(value->get_string());
}

}  // namespace

std::string_view CommandName(const Command& command) {
  static constexpr std::string_view kNames[] = {
      "CreateContract",       "UpdateData",      "UpdateTableData",       "ReplaceParticipants",
      "UpdateRoleBindings",   "SendContract",    "RecordSignerCompleted", "RecordSignerDeclined",
      "CompleteContract",     "PersistEvidence", "CreateSigningSession",  "CancelSigningSession",
      "RefreshSigningSession"};
  return kNames[command.index()];
}

Result<Command> CommandFromJson(std::string_view name, const boost::json::object& body) {
  if (name == "CreateContract") {
    CreateContract c;
    Split(body,
          {{"title", &c.title},
           {"templateId", &c.template_id},
           {"templateVersionId", &c.template_version_id},
           {"data", &c.data},
           {"fieldValues", &c.field_values},
           {"tableData", &c.table_data},
           {"participants", &c.participants},
           {"roleBindings", &c.role_bindings},
           {"signingSettings", &c.signing_settings},
           {"sendNow", &c.send_now},
           {"notifications", &c.notifications}},
          c.unknown);
    return c;
  }
  if (name == "UpdateData") {
    UpdateData c;
    Split(body, {{"fieldValues", &c.field_values}, {"tableData", &c.table_data}}, c.unknown);
    return c;
  }
  if (name == "UpdateTableData") {
    UpdateTableData c;
    Split(body, {{"tableData", &c.table_data}}, c.unknown);
    return c;
  }
  if (name == "ReplaceParticipants") {
    ReplaceParticipants c;
    Split(body, {{"participants", &c.participants}}, c.unknown);
    return c;
  }
  if (name == "UpdateRoleBindings") {
    UpdateRoleBindings c;
    Split(body, {{"roleBindings", &c.role_bindings}, {"signingSettings", &c.signing_settings}},
          c.unknown);
    return c;
  }
  if (name == "SendContract") {
    SendContract c;
    Split(body,
          {{"roleBindings", &c.role_bindings},
           {"signingSettings", &c.signing_settings},
           {"notifications", &c.notifications}},
          c.unknown);
    return c;
  }
  if (name == "RecordSignerCompleted") {
    RecordSignerCompleted c;
    auto id = Text(body, "participantId");
    if (!id) return Fail(id.error());
    auto signed_at = Text(body, "signedAt");
    if (!signed_at) return Fail(signed_at.error());
    auto session = Text(body, "sessionId");
    if (!session) return Fail(session.error());
    c.participant_id = *id;
    c.session_id = *session;
    c.signed_at = *signed_at;
    if (const auto* evidence = Member(body, "evidence")) {
      if (!evidence->is_object()) {
        return Fail(ErrorCode::kValidationFailed, "invalid command", "evidence",
                    "must be an object");
      }
      c.evidence = evidence->get_object();
    }
    return c;
  }
  if (name == "RecordSignerDeclined") {
    auto id = Text(body, "participantId");
    if (!id) return Fail(id.error());
    auto reason = Text(body, "reason");
    if (!reason) return Fail(reason.error());
    auto session = Text(body, "sessionId");
    if (!session) return Fail(session.error());
    return RecordSignerDeclined{*id, *reason, *session};
  }
  if (name == "CompleteContract") {
    auto key = Text(body, "signedPdfKey");
    if (!key) return Fail(key.error());
    auto sha = Text(body, "signedPdfSha256");
    if (!sha) return Fail(sha.error());
    return CompleteContract{*key, *sha};
  }
  if (name == "CreateSigningSession") {
    CreateSigningSession c;
    for (auto [key, slot] :
         {std::pair{"participantId", &c.participant_id}, std::pair{"sessionId", &c.session_id},
          std::pair{"tokenSha256", &c.token_sha256}, std::pair{"expiresAt", &c.expires_at},
          std::pair{"returnUrl", &c.return_url}, std::pair{"providerId", &c.provider_id}}) {
      auto text = Text(body, key);
      if (!text) return Fail(text.error());
      *slot = std::move(*text);
    }
    if (const auto* automatic = Member(body, "automatic")) {
      c.automatic = automatic->is_bool() && automatic->get_bool();
    }
    return c;
  }
  if (name == "CancelSigningSession") {
    auto session = Text(body, "sessionId");
    if (!session) return Fail(session.error());
    return CancelSigningSession{*session};
  }
  if (name == "RefreshSigningSession") {
    RefreshSigningSession c;
    for (auto [key, slot] :
         {std::pair{"sessionId", &c.session_id}, std::pair{"tokenSha256", &c.token_sha256},
          std::pair{"expiresAt", &c.expires_at}}) {
      auto text = Text(body, key);
      if (!text) return Fail(text.error());
      *slot = std::move(*text);
    }
    return c;
  }
  if (name == "PersistEvidence") {
    PersistEvidence c;
    if (const auto* revision = Member(body, "revision")) {
      auto number = AsInteger(*revision);
      if (!number) {
        return Fail(ErrorCode::kValidationFailed, "invalid command", "revision",
                    "must be an integer");
      }
      c.revision = *number;
    }
    auto sha = Text(body, "sha256");
    if (!sha) return Fail(sha.error());
    c.sha256 = *sha;
    return c;
  }
  return Fail(ErrorCode::kValidationFailed, "unknown command " + std::string(name), "command",
              "unknown");
}

}  // namespace esign
