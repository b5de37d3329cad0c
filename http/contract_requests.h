// The contract family's write requests as the domain's commands. Each known request member goes
// to its slot of the command, every other member into `unknown`, which Decide refuses by name.
// The members keep their JSON: Decide checks them in the order the rules require and names each
// problem by its request path (domain/contract_commands.h), so a body is never half-checked here.
// Pure functions; any thread.
#pragma once

#include <boost/json.hpp>

#include "domain/contract_commands.h"

namespace esign::http {

// One specialization per request: CreateContract (POST /contracts), UpdateData (PUT .../data),
// UpdateTableData (PUT .../table-data), ReplaceParticipants (PUT .../participants),
// UpdateRoleBindings (PUT .../role-bindings), SendContract (POST .../send), VoidContract
// (POST .../void), RemindParticipants (POST .../remind).
template <class Request>
Request CommandFromRequest(const boost::json::object& body);

template <>
CreateContract CommandFromRequest<CreateContract>(const boost::json::object& body);
template <>
UpdateData CommandFromRequest<UpdateData>(const boost::json::object& body);
template <>
UpdateTableData CommandFromRequest<UpdateTableData>(const boost::json::object& body);
template <>
ReplaceParticipants CommandFromRequest<ReplaceParticipants>(const boost::json::object& body);
template <>
UpdateRoleBindings CommandFromRequest<UpdateRoleBindings>(const boost::json::object& body);
template <>
SendContract CommandFromRequest<SendContract>(const boost::json::object& body);
template <>
VoidContract CommandFromRequest<VoidContract>(const boost::json::object& body);
template <>
RemindParticipants CommandFromRequest<RemindParticipants>(const boost::json::object& body);

}  // namespace esign::http
