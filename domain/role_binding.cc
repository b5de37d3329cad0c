#include "domain/role_binding.h"

#include <set>

#include "base/json_read.h"
#include "domain/json_util.h"

namespace esign {
namespace {

std::unexpected<Error> Invalid(std::string field, std::string issue) {
  return Fail(ErrorCode::kContractRoleBindingInvalid, "invalid role binding", std::move(field),
              std::move(issue));
}

const Participant* FindParticipant(const std::vector<Participant>& participants,
                                   std::string_view id) {
  for (const auto& p : participants) {
    if (p.participant_id == id) return &p;
  }
  return nullptr;
}

}  // namespace

Result<std::vector<BindingRequest>> ReadRoleBindings(const boost::json::value& value,
                                                     const std::string& path,
                                                     const std::vector<Participant>& participants,
                                                     bool allow_index) {
  if (!value.is_array()) return Invalid(path, "must be an array of bindings");
  std::vector<BindingRequest> out;
  const auto& items = value.get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    std::string item_path = IndexPath(path, i);
    if (!items[i].is_object()) return Invalid(item_path, "must be an object");
    const auto& item = items[i].get_object();
    Details unknown;
    RejectUnknownMembers(item, item_path, {"templateRoleId", "participantId", "participantIndex"},
                         unknown);
    if (!unknown.empty()) return Invalid(unknown[0].field, unknown[0].issue);
    BindingRequest request;
    request.role_path = JoinPath(item_path, "templateRoleId");
    const auto* role = Member(item, "templateRoleId");
    if (role == nullptr || !role->is_string() || role->get_string().empty()) {
      return Invalid(request.role_path, "required non-empty string");
    }
    request.binding.template_role_id = std::string(role->get_string());
    const auto* id = Member(item, "participantId");
    const auto* index = Member(item, "participantIndex");
    if ((id == nullptr) == (index == nullptr)) {
      return Invalid(item_path, allow_index ? "give exactly one of participantId, participantIndex"
                                            : "participantId is required");
    }
    if (id != nullptr) {
      request.participant_path = JoinPath(item_path, "participantId");
      if (!id->is_string() || id->get_string().empty()) {
        return Invalid(request.participant_path, "must be a non-empty string");
      }
      request.binding.participant_id = std::string(id->get_string());
    } else {
      request.participant_path = JoinPath(item_path, "participantIndex");
      if (!allow_index) {
        return Invalid(request.participant_path,
                       "participantIndex is accepted at creation only; use participantId");
      }
      auto number = AsInteger(*index);
      if (!number || *number < 0 || static_cast<size_t>(*number) >= participants.size()) {
        return Invalid(request.participant_path, "must index this request's participants");
      }
      request.binding.participant_id = participants[static_cast<size_t>(*number)].participant_id;
    }
    out.push_back(std::move(request));
  }
  return out;
}

Result<std::vector<RoleBinding>> CheckRoleBindings(const TemplateVersion& version,
                                                   const std::vector<Participant>& participants,
                                                   const std::vector<BindingRequest>& requests) {
  std::vector<RoleBinding> out;
  std::set<std::string> bound_roles;
  std::set<std::string> bound_participants;
  for (const auto& request : requests) {
    const auto& [role_id, participant_id] = request.binding;
    const RoleDef* role = version.FindRole(role_id);
    if (role == nullptr) {
      return Fail(ErrorCode::kContractRoleBindingUnknownRole, "unknown template role " + role_id,
                  request.role_path,
                  "no role " + role_id + " in template version " + version.template_version_id);
    }
    const Participant* participant = FindParticipant(participants, participant_id);
    if (participant == nullptr) {
      return Invalid(request.participant_path, "no participant " + participant_id);
    }
    if (!bound_roles.insert(role_id).second) {
      return Fail(ErrorCode::kContractRoleBindingDuplicate, "role " + role_id + " is bound twice",
                  request.role_path, "role already bound");
    }
    if (!bound_participants.insert(participant_id).second) {
      return Fail(ErrorCode::kContractRoleBindingDuplicate,
                  "participant " + participant_id + " is bound to two roles",
                  request.participant_path, "participant already bound to a role");
    }
    if (participant->action != role->action) {
      return Invalid(request.role_path,
                     "role " + role_id + " has action " + std::string(ToString(role->action)) +
                         ", the participant " + std::string(ToString(participant->action)));
    }
    if (participant->recipient_type != role->recipient_type) {
      return Invalid(request.role_path, "role " + role_id + " is for an " +
                                            std::string(ToString(role->recipient_type)) +
                                            ", the participant is an " +
                                            std::string(ToString(participant->recipient_type)));
    }
    out.push_back(request.binding);
  }
  return out;
}

boost::json::array RoleBindingsToJson(const std::vector<RoleBinding>& bindings) {
  boost::json::array out;
  for (const auto& b : bindings) {
    out.push_back(boost::json::object{{"templateRoleId", b.template_role_id},
                                      {"participantId", b.participant_id}});
  }
  return out;
}

std::vector<RoleBinding> RoleBindingsFromJson(const boost::json::value& value) {
  std::vector<RoleBinding> out;
  if (!value.is_array()) return out;
  for (const auto& item : value.get_array()) {
    if (!item.is_object()) continue;
    const auto* role = item.get_object().if_contains("templateRoleId");
    const auto* id = item.get_object().if_contains("participantId");
    if (role != nullptr && role->is_string() && id != nullptr && id->is_string()) {
      out.push_back(RoleBinding{std::string(role->get_string()), std::string(id->get_string())});
    }
  }
  return out;
}

}  // namespace esign
