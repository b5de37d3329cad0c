#include "domain/template.h"

namespace esign {

std::string_view ToString(FieldType type) {
  switch (type) {
    case FieldType::kString:
      return "string";
    case FieldType::kText:
      return "text";
    case FieldType::kInteger:
      return "integer";
    case FieldType::kDecimal:
      return "decimal";
    case FieldType::kBoolean:
      return "boolean";
    case FieldType::kDate:
      return "date";
    case FieldType::kEmail:
      return "email";
    case FieldType::kEnum:
      return "enum";
  }
  return "string";
}

std::optional<FieldType> ParseFieldType(std::string_view text) {
  for (FieldType type :
       {FieldType::kString, FieldType::kText, FieldType::kInteger, FieldType::kDecimal,
        FieldType::kBoolean, FieldType::kDate, FieldType::kEmail, FieldType::kEnum}) {
    if (ToString(type) == text) return type;
  }
  return std::nullopt;
}

std::string_view ToString(ParticipantAction action) {
  switch (action) {
    case ParticipantAction::kSign:
      return "sign";
    case ParticipantAction::kView:
      return "view";
    case ParticipantAction::kReceiveCopy:
      return "receive_copy";
  }
  return "sign";
}

std::optional<ParticipantAction> ParseParticipantAction(std::string_view text) {
  if (text == "sign") return ParticipantAction::kSign;
  if (text == "view") return ParticipantAction::kView;
  if (text == "receive_copy") return ParticipantAction::kReceiveCopy;
  return std::nullopt;
}

std::string_view ToString(RecipientType type) {
  return type == RecipientType::kIndividual ? "individual" : "organization";
}

std::optional<RecipientType> ParseRecipientType(std::string_view text) {
  if (text == "individual") return RecipientType::kIndividual;
  if (text == "organization") return RecipientType::kOrganization;
  return std::nullopt;
}

std::string_view ToString(BlockType type) {
  switch (type) {
    case BlockType::kHeading:
      return "heading";
    case BlockType::kParagraph:
      return "paragraph";
    case BlockType::kTable:
      return "table";
    case BlockType::kSignatures:
      return "signatures";
  }
  return "paragraph";
}

std::string_view ToString(OrganizationSigningMode mode) {
  return mode == OrganizationSigningMode::kAutomatic ? "automatic" : "manual";
}

const FieldDef* TableDef::FindColumn(std::string_view key) const {
  for (const auto& column : columns) {
    if (column.key == key) return &column;
  }
  return nullptr;
}

const FieldDef* TemplateVersion::FindField(std::string_view key) const {
  for (const auto& section : sections) {
    for (const auto& field : section.fields) {
      if (field.key == key) return &field;
    }
  }
  return nullptr;
}

const TableDef* TemplateVersion::FindTable(std::string_view table_key) const {
  for (const auto& section : sections) {
    for (const auto& table : section.tables) {
      if (table.table_key == table_key) return &table;
    }
  }
  return nullptr;
}

const RoleDef* TemplateVersion::FindRole(std::string_view template_role_id) const {
  for (const auto& role : roles) {
    if (role.template_role_id == template_role_id) return &role;
  }
  return nullptr;
}

const SectionDef* TemplateVersion::FindSection(std::string_view key) const {
  for (const auto& section : sections) {
    if (section.key == key) return &section;
  }
  return nullptr;
}

bool Template::VisibleTo(std::string_view organization) const {
  return !organization_id || *organization_id == organization;
}

const TemplateVersion* Template::FindVersion(std::string_view template_version_id) const {
  for (const auto& version : versions) {
    if (version.template_version_id == template_version_id) return &version;
  }
  return nullptr;
}

const TemplateVersion* Template::PublishedVersion() const {
  for (const auto& version : versions) {
    if (version.published) return &version;
  }
  return nullptr;
}

Result<const TemplateVersion*> SelectTemplateVersion(const Template& tmpl,
                                                     std::optional<std::string_view> version_id) {
  if (version_id) {
    if (const TemplateVersion* version = tmpl.FindVersion(*version_id)) return version;
    return Fail(ErrorCode::kTemplateVersionNotFound,
                "template " + tmpl.template_id + " has no version " + std::string(*version_id),
                "templateVersionId", "unknown version");
  }
  if (const TemplateVersion* version = tmpl.PublishedVersion()) return version;
  return Fail(ErrorCode::kTemplateVersionNotFound,
              "template " + tmpl.template_id + " has no published version", "templateVersionId",
              "no published version; name one");
}

}  // namespace esign
