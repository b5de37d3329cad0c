#include "tests/support/command_from_json.h"

#include <string>
#include <utility>

#include "base/json_read.h"
#include "http/contract_requests.h"

namespace esign::testing {
namespace {

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

Result<Command> CommandFromJson(std::string_view name, const boost::json::object& body) {
  if (name == "CreateContract") return http::CommandFromRequest<CreateContract>(body);
  if (name == "UpdateData") return http::CommandFromRequest<UpdateData>(body);
  if (name == "UpdateTableData") return http::CommandFromRequest<UpdateTableData>(body);
  if (name == "ReplaceParticipants") return http::CommandFromRequest<ReplaceParticipants>(body);
  if (name == "UpdateRoleBindings") return http::CommandFromRequest<UpdateRoleBindings>(body);
  if (name == "SendContract") return http::CommandFromRequest<SendContract>(body);
  if (name == "VoidContract") return http::CommandFromRequest<VoidContract>(body);
  if (name == "RemindParticipants") return http::CommandFromRequest<RemindParticipants>(body);
  if (name == "RunDueTimers") return RunDueTimers{};
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
    if (const auto* values = Member(body, "fieldValues")) c.field_values = *values;
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
    auto content = Text(body, "signedContentSha256");
    if (!content) return Fail(content.error());
    return CompleteContract{*key, *sha, *content};
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

}  // namespace esign::testing
