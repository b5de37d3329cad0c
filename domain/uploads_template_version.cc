#include "domain/uploads_template_version.h"

#include <algorithm>
#include <string>

#include "base/json_read.h"
#include "domain/json_util.h"
#include "domain/placed_field_rules.h"
#include "domain/template_json.h"

namespace esign {
namespace {

// The roles as owners of fields: a role's id stands for a participant's. A role whose action
// cannot be read signs nothing here; the importer names its problem.
std::vector<Participant> RolesAsOwners(const boost::json::value* roles, Details& validation) {
  std::vector<Participant> owners;
  if (roles == nullptr || !roles->is_array()) return owners;
  const auto& items = roles->get_array();
  for (size_t i = 0; i < items.size(); ++i) {
    Participant owner;
    owner.action = ParticipantAction::kView;
    if (items[i].is_object()) {
      const auto& role = items[i].get_object();
      owner.participant_id = std::string(StringMember(role, "templateRoleId").value_or(""));
      owner.action = ParseParticipantAction(StringMember(role, "action").value_or(""))
                         .value_or(ParticipantAction::kView);
      if (Member(role, "signaturePlacement") != nullptr) {
        AddDetail(validation, JoinPath(IndexPath("roles", i), "signaturePlacement"),
                  "a version made from documents places signatures with its fields");
      }
    }
    owners.push_back(std::move(owner));
  }
  return owners;
}

}  // namespace

bool IsUploadsVersionRequest(const boost::json::object& request) {
  return Member(request, "documents") != nullptr;
}

Result<boost::json::object> UploadsVersionDocument(const boost::json::object& request,
                                                   std::string_view template_version_id,
                                                   const std::vector<UploadedDocument>& uploads) {
  Details validation;
  RejectUnknownMembers(
      request, "", {"documents", "roles", "fields", "formFieldMapping", "settings", "published"},
      validation);
  auto documents = ReadContractDocuments(*Member(request, "documents"), uploads, validation);
  if (!documents) return std::unexpected(documents.error());
  const boost::json::value* roles = Member(request, "roles");
  const std::vector<Participant> owners = RolesAsOwners(roles, validation);
  const boost::json::value* fields = Member(request, "fields");
  const boost::json::value* mapping = Member(request, "formFieldMapping");
  const boost::json::value none;
  std::vector<PlacedField> placed =
      ReadPlacedFields(fields != nullptr ? *fields : none, mapping != nullptr ? *mapping : none,
                       uploads, *documents, owners, validation, kRoleOwners);
  boost::json::array roles_out;
  for (size_t i = 0; i < owners.size(); ++i) {
    boost::json::value role = roles->get_array()[i];
    if (owners[i].signs()) {
      auto placements = SignaturePlacementsOf(*documents, placed, owners[i].participant_id);
      if (placements.empty()) {
        AddDetail(validation, IndexPath("roles", i),
                  "a sign role needs at least one signature field");
      }
      boost::json::array placements_json;
      for (const auto& placement : placements)
        placements_json.push_back(PlacementToJson(placement));
      role.get_object()["signaturePlacement"] = std::move(placements_json);
    }
    roles_out.push_back(std::move(role));
  }
  if (!validation.empty()) {
    return std::unexpected(
        Error{ErrorCode::kTemplateInvalid, "template version is invalid", std::move(validation)});
  }
  boost::json::object version{{"templateVersionId", template_version_id}};
  for (std::string_view key : {"published", "settings"}) {
    if (const auto* member = Member(request, key)) version[key] = *member;
  }
  if (roles != nullptr) {
    // Not an array: left as it came, for the importer to name.
    version["roles"] = roles->is_array() ? boost::json::value(std::move(roles_out)) : *roles;
  }
  boost::json::array documents_json;
  for (const auto& document : *documents)
    documents_json.push_back(ContractDocumentToJson(document));
  version["documents"] = std::move(documents_json);
  boost::json::array fields_json;
  for (const auto& field : placed)
    fields_json.push_back(PlacedFieldToJson(field, "templateRoleId"));
  version["fields"] = std::move(fields_json);
  return version;
}

}  // namespace esign
