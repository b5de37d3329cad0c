#include "domain/template_json.h"

#include <cmath>

namespace esign {

boost::json::value NumberToJson(double value) {
  if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < 9.0e15) {
    return static_cast<int64_t>(value);
  }
  return value;
}

boost::json::object FieldDefToJson(const FieldDef& field) {
  boost::json::object out;
  out["key"] = field.key;
  out["label"] = field.label;
  out["type"] = ToString(field.type);
  out["required"] = field.required;
  if (field.description) out["description"] = *field.description;
  if (field.type == FieldType::kEnum) {
    boost::json::array options;
    for (const auto& option : field.options) options.emplace_back(option);
    out["options"] = std::move(options);
  }
  if (field.min_length) out["minLength"] = *field.min_length;
  if (field.max_length) out["maxLength"] = *field.max_length;
  // Integer limits are JSON integers; decimal limits stay exact strings.
  auto limit = [&](const std::string& text) -> boost::json::value {
    if (field.type == FieldType::kInteger) return std::stoll(text);
    return boost::json::string(text);
  };
  if (field.minimum) out["minimum"] = limit(*field.minimum);
  if (field.maximum) out["maximum"] = limit(*field.maximum);
  return out;
}

boost::json::object PlacementToJson(const SignaturePlacement& placement) {
  return {{"page", placement.page},
          {"x", NumberToJson(placement.x)},
          {"y", NumberToJson(placement.y)},
          {"width", NumberToJson(placement.width)},
          {"height", NumberToJson(placement.height)}};
}

boost::json::object RoleDefToJson(const RoleDef& role) {
  boost::json::object out;
  out["templateRoleId"] = role.template_role_id;
  out["name"] = role.name;
  if (role.description) out["description"] = *role.description;
  out["action"] = ToString(role.action);
  out["recipientType"] = ToString(role.recipient_type);
  out["routingOrder"] = role.routing_order;
  out["required"] = role.required;
  if (role.action == ParticipantAction::kSign) {
    boost::json::array placements;
    for (const auto& placement : role.signature_placement) {
      placements.emplace_back(PlacementToJson(placement));
    }
    out["signaturePlacement"] = std::move(placements);
  }
  return out;
}

namespace {

// A field of a rendered version's role as a template file gives it (placed_field_rules.h
// ReadRoleFields reads it back to the same field, its id included).
boost::json::object RoleFieldToJson(const PlacedField& field) {
  boost::json::object out{{"type", ToString(field.type)}};
  if (!field.name.empty()) out["name"] = field.name;
  out["page"] = field.box.page;
  out["x"] = NumberToJson(field.box.x);
  out["y"] = NumberToJson(field.box.y);
  out["width"] = NumberToJson(field.box.width);
  out["height"] = NumberToJson(field.box.height);
  out["required"] = field.required;
  if (field.rules) {
    for (auto& [key, rule] : SignerFieldRulesToJson(*field.rules)) out[key] = std::move(rule);
  }
  if (field.read_only) {
    out["readOnly"] = true;
    out["value"] = field.value;
  }
  return out;
}

boost::json::object TableToJson(const TableDef& table) {
  boost::json::object out;
  out["tableKey"] = table.table_key;
  out["label"] = table.label;
  boost::json::array columns;
  for (const auto& column : table.columns) columns.emplace_back(FieldDefToJson(column));
  out["columns"] = std::move(columns);
  out["minRows"] = table.min_rows;
  if (table.max_rows) out["maxRows"] = *table.max_rows;
  return out;
}

boost::json::object SectionToJson(const SectionDef& section) {
  boost::json::object out;
  out["key"] = section.key;
  out["title"] = section.title;
  boost::json::array fields;
  for (const auto& field : section.fields) fields.emplace_back(FieldDefToJson(field));
  out["fields"] = std::move(fields);
  boost::json::array tables;
  for (const auto& table : section.tables) tables.emplace_back(TableToJson(table));
  out["tables"] = std::move(tables);
  return out;
}

boost::json::object BlockToJson(const BodyBlock& block) {
  boost::json::object out;
  out["type"] = ToString(block.type);
  switch (block.type) {
    case BlockType::kHeading:
      out["text"] = block.text;
      out["level"] = block.level;
      break;
    case BlockType::kParagraph:
      out["text"] = block.text;
      break;
    case BlockType::kTable:
      out["tableKey"] = block.table_key;
      break;
    case BlockType::kSignatures:
      break;
  }
  return out;
}

}  // namespace

boost::json::object TemplateVersionToJson(const TemplateVersion& version) {
  boost::json::object out;
  out["templateVersionId"] = version.template_version_id;
  out["published"] = version.published;
  out["settings"] = {
      {"organizationSigningMode", ToString(version.settings.organization_signing_mode)},
      {"notifications", version.settings.notifications}};
  boost::json::array roles;
  for (const auto& role : version.roles) {
    boost::json::object json = RoleDefToJson(role);
    boost::json::array fields;
    for (const auto& field : version.fields) {
      if (field.participant_id == role.template_role_id)
        fields.emplace_back(RoleFieldToJson(field));
    }
    // A version made from uploads lists its fields with their role, below.
    if (!version.from_uploads() && !fields.empty()) json["fields"] = std::move(fields);
    roles.emplace_back(std::move(json));
  }
  out["roles"] = std::move(roles);
  if (version.from_uploads()) {
    boost::json::array documents;
    for (const auto& document : version.documents) {
      documents.emplace_back(ContractDocumentToJson(document));
    }
    out["documents"] = std::move(documents);
    boost::json::array fields;
    for (const auto& field : version.fields) {
      fields.emplace_back(PlacedFieldToJson(field, "templateRoleId"));
    }
    out["fields"] = std::move(fields);
    return out;
  }
  boost::json::array sections;
  for (const auto& section : version.sections) sections.emplace_back(SectionToJson(section));
  out["inputSchema"] = {{"sections", std::move(sections)}};
  boost::json::array body;
  for (const auto& block : version.body) body.emplace_back(BlockToJson(block));
  out["body"] = std::move(body);
  return out;
}

boost::json::object TemplateToJson(const Template& tmpl) {
  boost::json::object out;
  out["templateId"] = tmpl.template_id;
  out["name"] = tmpl.name;
  out["description"] = tmpl.description;
  boost::json::array versions;
  for (const auto& version : tmpl.versions) versions.emplace_back(TemplateVersionToJson(version));
  out["versions"] = std::move(versions);
  return out;
}

}  // namespace esign
