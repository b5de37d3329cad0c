#include "http/contract_requests.h"

#include <initializer_list>
#include <string_view>
#include <utility>

namespace esign::http {
namespace {

// Copies the named members into their slots and everything else into `unknown`.
void SplitMembers(const boost::json::object& body,
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

}  // namespace

template <>
CreateContract CommandFromRequest<CreateContract>(const boost::json::object& body) {
  CreateContract c;
  SplitMembers(body,
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
                {"notifications", &c.notifications},
                {"documents", &c.documents},
                {"fields", &c.fields},
                {"formFieldMapping", &c.form_field_mapping}},
               c.unknown);
  return c;
}

template <>
UpdateData CommandFromRequest<UpdateData>(const boost::json::object& body) {
  UpdateData c;
  SplitMembers(body, {{"fieldValues", &c.field_values}, {"tableData", &c.table_data}}, c.unknown);
  return c;
}

template <>
UpdateTableData CommandFromRequest<UpdateTableData>(const boost::json::object& body) {
  UpdateTableData c;
  SplitMembers(body, {{"tableData", &c.table_data}}, c.unknown);
  return c;
}

template <>
ReplaceParticipants CommandFromRequest<ReplaceParticipants>(const boost::json::object& body) {
  ReplaceParticipants c;
  SplitMembers(body, {{"participants", &c.participants}}, c.unknown);
  return c;
}

template <>
UpdateRoleBindings CommandFromRequest<UpdateRoleBindings>(const boost::json::object& body) {
  UpdateRoleBindings c;
  SplitMembers(body, {{"roleBindings", &c.role_bindings}, {"signingSettings", &c.signing_settings}},
               c.unknown);
  return c;
}

template <>
SendContract CommandFromRequest<SendContract>(const boost::json::object& body) {
  SendContract c;
  SplitMembers(body,
               {{"roleBindings", &c.role_bindings},
                {"signingSettings", &c.signing_settings},
                {"notifications", &c.notifications}},
               c.unknown);
  return c;
}

template <>
VoidContract CommandFromRequest<VoidContract>(const boost::json::object& body) {
  VoidContract c;
  SplitMembers(body, {{"reason", &c.reason}}, c.unknown);
  return c;
}

template <>
RemindParticipants CommandFromRequest<RemindParticipants>(const boost::json::object& body) {
  RemindParticipants c;
  SplitMembers(body, {{"participantIds", &c.participant_ids}}, c.unknown);
  return c;
}

}  // namespace esign::http
