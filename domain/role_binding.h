// Role bindings: which participant fills which template role. A binding comes from
// participants[i].templateRoleId or from an explicit roleBindings entry
// {templateRoleId, participantId} or, at creation only, {templateRoleId, participantIndex} (an
// index into the same request's participants, whose ids do not exist yet). Both sources are
// checked together:
//   unknown role                                   -> kContractRoleBindingUnknownRole
//   a role bound twice, a participant in two roles -> kContractRoleBindingDuplicate
//   unknown participant, malformed entry, action or recipientType unlike the role's
//                                                  -> kContractRoleBindingInvalid
// Pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "domain/participant.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign {

struct RoleBinding {
  std::string template_role_id;
  std::string participant_id;
  friend bool operator==(const RoleBinding&, const RoleBinding&) = default;
};

// A binding as requested, with the paths that name it in errors.
struct BindingRequest {
  RoleBinding binding;
  std::string role_path;         // e.g. "roleBindings[0].templateRoleId"
  std::string participant_path;  // e.g. "roleBindings[0].participantId"
};

// Reads an explicit `roleBindings` array. `participants` resolves participantIndex when
// `allow_index` (creation); kContractRoleBindingInvalid for malformed entries.
Result<std::vector<BindingRequest>> ReadRoleBindings(const boost::json::value& value,
                                                     const std::string& path,
                                                     const std::vector<Participant>& participants,
                                                     bool allow_index);

// Checks the requests, in order, against the template version and the participants.
Result<std::vector<RoleBinding>> CheckRoleBindings(const TemplateVersion& version,
                                                   const std::vector<Participant>& participants,
                                                   const std::vector<BindingRequest>& requests);

boost::json::array RoleBindingsToJson(const std::vector<RoleBinding>& bindings);
std::vector<RoleBinding> RoleBindingsFromJson(const boost::json::value& value);

}  // namespace esign
