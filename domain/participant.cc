#include "domain/participant.h"

#include <set>

#include "base/json_read.h"
#include "domain/event_codec.h"
#include "domain/field_value.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

// A string member of 1..max characters, or nullopt after a detail.
std::optional<std::string> ReadText(const boost::json::object& object, const std::string& path,
                                    std::string_view key, size_t max, Details& details) {
  const auto* value = Member(object, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_string() || value->get_string().empty()) {
    AddDetail(details, JoinPath(path, key), "must be a non-empty string");
    return std::nullopt;
  }
  if (CountCharacters(value->get_string()) > static_cast<int64_t>(max)) {
    AddDetail(details, JoinPath(path, key), "at most " + std::to_string(max) + " characters");
    return std::nullopt;
  }
  return std::string(value->get_string());
}

bool IsAccessCode(std::string_view code) {
  const int64_t length = CountCharacters(code);
  if (length < kMinAccessCodeLength || length > kMaxAccessCodeLength) return false;
  for (char ch : code) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  }
  return true;
}

struct AuthenticationRequest {
  SignerAuthentication method = SignerAuthentication::kNone;
  std::string access_code;
};

// authentication and accessCode (DESIGN section 15): problems go to `validation`.
AuthenticationRequest ReadAuthentication(const boost::json::object& object, const std::string& path,
                                         std::optional<ParticipantAction> action,
                                         std::optional<ExecutionChannel> channel,
                                         Details& validation) {
  AuthenticationRequest out;
  const std::string method_path = JoinPath(path, "authentication");
  if (auto text = ReadText(object, path, "authentication", 32, validation)) {
    if (auto method = ParseSignerAuthentication(*text)) {
      out.method = *method;
    } else {
      AddDetail(validation, method_path, "must be none, access_code or email_otp");
    }
  }
  if (out.method != SignerAuthentication::kNone &&
      !(action == ParticipantAction::kSign && channel == ExecutionChannel::kPlatformHosted)) {
    AddDetail(validation, method_path,
              "only platform_hosted signers prove who they are on the hosted page");
  }
  if (out.method == SignerAuthentication::kEmailOtp && Member(object, "email") == nullptr) {
    AddDetail(validation, method_path, "email_otp needs the participant's email");
  }
  const std::string code_path = JoinPath(path, "accessCode");
  const auto* code = Member(object, "accessCode");
  if (out.method != SignerAuthentication::kAccessCode) {
    if (code != nullptr) AddDetail(validation, code_path, "only with authentication access_code");
  } else if (code == nullptr) {
    AddDetail(validation, code_path, "required with authentication access_code");
  } else if (!code->is_string() || !IsAccessCode(code->get_string())) {
    AddDetail(validation, code_path,
              "must be a string of " + std::to_string(kMinAccessCodeLength) + ".." +
                  std::to_string(kMaxAccessCodeLength) + " characters without control characters");
  } else {
    out.access_code = std::string(code->get_string());
  }
  return out;
}

std::optional<ParticipantRequest> ReadOne(const boost::json::object& object,
                                          const std::string& path, Details& validation,
                                          Details& routing) {
  size_t problems = validation.size() + routing.size();
  RejectUnknownMembers(object, path,
                       {"participantId", "action", "recipientType", "name", "email",
                        "organizationId", "executionChannel", "templateRoleId", "routingOrder",
                        "providerConfigRef", "authentication", "accessCode"},
                       validation);
  ParticipantRequest request;
  Participant& p = request.participant;

  auto action = ReadText(object, path, "action", 32, validation);
  std::optional<ParticipantAction> parsed_action;
  if (action) parsed_action = ParseParticipantAction(*action);
  if (!action) {
    if (Member(object, "action") == nullptr)
      AddDetail(validation, JoinPath(path, "action"), "required");
  } else if (!parsed_action) {
    AddDetail(validation, JoinPath(path, "action"), "must be sign, view or receive_copy");
  }
  auto type = ReadText(object, path, "recipientType", 32, validation);
  std::optional<RecipientType> parsed_type;
  if (type) parsed_type = ParseRecipientType(*type);
  if (!type) {
    if (Member(object, "recipientType") == nullptr) {
      AddDetail(validation, JoinPath(path, "recipientType"), "required");
    }
  } else if (!parsed_type) {
    AddDetail(validation, JoinPath(path, "recipientType"), "must be individual or organization");
  }

  // An organization is named by its id when no name is given (DESIGN 18); a person needs one.
  auto name = ReadText(object, path, "name", 200, validation);
  if (!name && Member(object, "name") == nullptr && parsed_type != RecipientType::kOrganization) {
    AddDetail(validation, JoinPath(path, "name"), "required");
  }
  auto email = ReadText(object, path, "email", 254, validation);
  if (email && !IsEmailAddress(*email)) {
    AddDetail(validation, JoinPath(path, "email"), std::string(kEmailAddressRule));
  }
  auto organization_id = ReadText(object, path, "organizationId", 128, validation);
  if (parsed_type == RecipientType::kIndividual) {
    if (Member(object, "email") == nullptr) {
      AddDetail(validation, JoinPath(path, "email"), "required for an individual");
    }
    if (Member(object, "organizationId") != nullptr) {
      AddDetail(validation, JoinPath(path, "organizationId"),
                "only organization participants have an organizationId");
    }
  } else if (parsed_type == RecipientType::kOrganization &&
             Member(object, "organizationId") == nullptr) {
    AddDetail(validation, JoinPath(path, "organizationId"), "required for an organization");
  }

  // Execution channel rules of the specification, section 2.
  std::string channel_path = JoinPath(path, "executionChannel");
  auto channel_text = ReadText(object, path, "executionChannel", 32, validation);
  std::optional<ExecutionChannel> channel;
  if (channel_text) channel = ParseExecutionChannel(*channel_text);
  if (channel_text && !channel) {
    AddDetail(validation, channel_path,
              "must be platform_hosted, integrator_managed or provider_managed");
  }
  if (parsed_action == ParticipantAction::kSign) {
    if (Member(object, "executionChannel") == nullptr) {
      AddDetail(validation, channel_path, "required for a signer");
    } else if (channel && parsed_type == RecipientType::kIndividual &&
               *channel == ExecutionChannel::kProviderManaged) {
      AddDetail(validation, channel_path,
                "an individual signer uses platform_hosted or integrator_managed");
    } else if (channel && parsed_type == RecipientType::kOrganization &&
               *channel != ExecutionChannel::kProviderManaged) {
      AddDetail(validation, channel_path, "an organization signer must be provider_managed");
    }
  } else if (parsed_action && Member(object, "executionChannel") != nullptr) {
    AddDetail(validation, channel_path, "must be absent unless action is sign");
  }

  auto provider_config_ref = ReadText(object, path, "providerConfigRef", 200, validation);
  if (Member(object, "providerConfigRef") != nullptr &&
      !(parsed_action == ParticipantAction::kSign &&
        channel == ExecutionChannel::kProviderManaged)) {
    AddDetail(validation, JoinPath(path, "providerConfigRef"),
              "only provider_managed signers have a providerConfigRef");
  }

  auto authentication = ReadAuthentication(object, path, parsed_action, channel, validation);

  if (const auto* order = Member(object, "routingOrder")) {
    auto number = AsInteger(*order);
    if (!number || *number < 1 || *number > 100) {
      AddDetail(routing, JoinPath(path, "routingOrder"), "must be an integer 1..100");
    } else {
      p.routing_order = *number;
    }
  }

  if (const auto* role = Member(object, "templateRoleId")) {
    if (!role->is_string() || role->get_string().empty()) {
      AddDetail(validation, JoinPath(path, "templateRoleId"), "must be a non-empty string");
    } else {
      request.template_role_id = std::string(role->get_string());
    }
  }

  if (!name && Member(object, "name") == nullptr && organization_id) name = *organization_id;
  if (validation.size() + routing.size() != problems || !parsed_action || !parsed_type || !name) {
    return std::nullopt;
  }
  p.action = *parsed_action;
  p.recipient_type = *parsed_type;
  p.name = *name;
  p.email = email;
  p.organization_id = organization_id;
  p.execution_channel = channel;
  p.provider_config_ref = provider_config_ref;
  p.authentication = authentication.method;
  p.access_code = authentication.access_code;
  return request;
}

}  // namespace

std::string_view ToString(ExecutionChannel channel) {
  switch (channel) {
    case ExecutionChannel::kPlatformHosted:
      return "platform_hosted";
    case ExecutionChannel::kIntegratorManaged:
      return "integrator_managed";
    case ExecutionChannel::kProviderManaged:
      return "provider_managed";
  }
  return "platform_hosted";
}

std::optional<ExecutionChannel> ParseExecutionChannel(std::string_view text) {
  if (text == "platform_hosted") return ExecutionChannel::kPlatformHosted;
  if (text == "integrator_managed") return ExecutionChannel::kIntegratorManaged;
  if (text == "provider_managed") return ExecutionChannel::kProviderManaged;
  return std::nullopt;
}

std::string_view ToString(SignerAuthentication authentication) {
  switch (authentication) {
    case SignerAuthentication::kNone:
      return "none";
    case SignerAuthentication::kAccessCode:
      return "access_code";
    case SignerAuthentication::kEmailOtp:
      return "email_otp";
  }
  return "none";
}

std::optional<SignerAuthentication> ParseSignerAuthentication(std::string_view text) {
  if (text == "none") return SignerAuthentication::kNone;
  if (text == "access_code") return SignerAuthentication::kAccessCode;
  if (text == "email_otp") return SignerAuthentication::kEmailOtp;
  return std::nullopt;
}

std::string_view ToString(ParticipantProgress progress) {
  switch (progress) {
    case ParticipantProgress::kWaiting:
      return "waiting";
    case ParticipantProgress::kReady:
      return "ready";
    case ParticipantProgress::kSigned:
      return "signed";
    case ParticipantProgress::kDeclined:
      return "declined";
    case ParticipantProgress::kNotified:
      return "notified";
  }
  return "waiting";
}

std::vector<ParticipantRequest> ReadParticipants(const boost::json::value& value,
                                                 const std::string& path,
                                                 const std::vector<std::string>& fresh_ids,
                                                 size_t* next_fresh, Details& validation,
                                                 Details& routing) {
  std::vector<ParticipantRequest> out;
  if (!value.is_array()) {
    AddDetail(validation, path, "must be an array");
    return out;
  }
  const auto& items = value.get_array();
  if (items.size() > kMaxParticipants) {
    AddDetail(validation, path, "at most " + std::to_string(kMaxParticipants) + " participants");
    return out;
  }
  std::set<std::string> ids;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item_path = IndexPath(path, i);
    if (!items[i].is_object()) {
      AddDetail(validation, item_path, "must be an object");
      continue;
    }
    const auto& object = items[i].get_object();
    std::optional<std::string> client_id;
    if (const auto* id = Member(object, "participantId")) {
      if (!id->is_string() || !IsClientIdentifier(id->get_string())) {
        AddDetail(validation, JoinPath(item_path, "participantId"),
                  "must match ^[A-Za-z0-9_-]{1,64}$");
      } else if (!ids.insert(std::string(id->get_string())).second) {
        AddDetail(validation, JoinPath(item_path, "participantId"), "duplicate participantId");
      } else {
        client_id = std::string(id->get_string());
      }
    }
    auto request = ReadOne(object, item_path, validation, routing);
    if (!request) continue;
    if (client_id) {
      request->participant.participant_id = *client_id;
    } else if (*next_fresh < fresh_ids.size()) {
      request->participant.participant_id = fresh_ids[(*next_fresh)++];
    }
    out.push_back(std::move(*request));
  }
  return out;
}

ParticipantRecord ParticipantToRecord(const Participant& p) {
  ParticipantRecord record;
  record.participant_id = p.participant_id;
  record.action = ToString(p.action);
  record.recipient_type = ToString(p.recipient_type);
  record.name = p.name;
  record.email = p.email;
  record.organization_id = p.organization_id;
  if (p.execution_channel) record.execution_channel = std::string(ToString(*p.execution_channel));
  record.routing_order = p.routing_order;
  record.provider_config_ref = p.provider_config_ref;
  if (p.authentication != SignerAuthentication::kNone) {
    record.authentication = std::string(ToString(p.authentication));
  }
  if (!p.access_code_hash.empty()) record.access_code_hash = p.access_code_hash;
  return record;
}

Participant ParticipantFromRecord(const ParticipantRecord& record) {
  Participant p;
  p.participant_id = record.participant_id;
  p.action = ParseParticipantAction(record.action).value_or(ParticipantAction::kSign);
  p.recipient_type = ParseRecipientType(record.recipient_type).value_or(RecipientType::kIndividual);
  p.name = record.name;
  p.email = record.email;
  p.organization_id = record.organization_id;
  if (record.execution_channel)
    p.execution_channel = ParseExecutionChannel(*record.execution_channel);
  p.routing_order = record.routing_order;
  p.provider_config_ref = record.provider_config_ref;
  p.authentication = ParseSignerAuthentication(record.authentication.value_or(""))
                         .value_or(SignerAuthentication::kNone);
  p.access_code_hash = record.access_code_hash.value_or("");
  return p;
}

boost::json::object ParticipantToEventJson(const Participant& p) {
  boost::json::object out = event_codec::Write(ParticipantToRecord(p)).get_object();
  // Only until the command handler hashes it (signer_authentication.h): never appended.
  if (!p.access_code.empty()) out["accessCode"] = p.access_code;
  return out;
}

Participant ParticipantFromEventJson(const boost::json::object& object) {
  ParticipantRecord record;
  std::string problem;
  event_codec::ReadMembers(object, record, problem, event_codec::PathPart{});
  return ParticipantFromRecord(record);
}

}  // namespace esign
