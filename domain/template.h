// The template model: what a contract is made from. A Template holds immutable versions; each
// version carries the input schema (sections of fields and dynamic tables), the roles that
// participants are bound to (with signature placement), settings, and the body the PDF renderer
// lays out. Values are built by ImportTemplate (template_importer.h), which guarantees the
// invariants noted below; after that they are read-only and safe to share between threads.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/placed_fields.h"
#include "domain/result.h"

namespace esign {

enum class FieldType { kString, kText, kInteger, kDecimal, kBoolean, kDate, kEmail, kEnum };
std::string_view ToString(FieldType type);
std::optional<FieldType> ParseFieldType(std::string_view text);

// A field of a section, or a column of a table (columns use the same shape).
struct FieldDef {
  std::string key;
  std::string label;
  FieldType type = FieldType::kString;
  bool required = false;
  std::optional<std::string> description;
  std::vector<std::string> options;    // enum only, never empty for enum
  std::optional<int64_t> min_length;   // string and text only
  std::optional<int64_t> max_length;   // string and text only
  std::optional<std::string> minimum;  // integer and decimal only, exact decimal text
  std::optional<std::string> maximum;  // integer and decimal only, exact decimal text
};

struct TableDef {
  std::string table_key;
  std::string label;
  std::vector<FieldDef> columns;    // keys unique within the table
  int64_t min_rows = 0;             // enforced when the contract is sent
  std::optional<int64_t> max_rows;  // enforced on every write
  const FieldDef* FindColumn(std::string_view key) const;
};

struct SectionDef {
  std::string key;
  std::string title;
  std::vector<FieldDef> fields;
  std::vector<TableDef> tables;
};

enum class ParticipantAction { kSign, kView, kReceiveCopy };
std::string_view ToString(ParticipantAction action);
std::optional<ParticipantAction> ParseParticipantAction(std::string_view text);

enum class RecipientType { kIndividual, kOrganization };
std::string_view ToString(RecipientType type);
std::optional<RecipientType> ParseRecipientType(std::string_view text);

// A signature box in PDF points (1/72 inch), origin at the top-left corner of a 1-based page.
struct SignaturePlacement {
  int64_t page = 1;
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
  bool operator==(const SignaturePlacement&) const = default;
};

struct RoleDef {
  std::string template_role_id;
  std::string name;
  std::optional<std::string> description;
  ParticipantAction action = ParticipantAction::kSign;
  RecipientType recipient_type = RecipientType::kIndividual;
  int64_t routing_order = 1;                            // 1..100
  bool required = false;                                // an unbound required role blocks sending
  std::vector<SignaturePlacement> signature_placement;  // non-empty for sign roles
};

enum class BlockType { kHeading, kParagraph, kTable, kSignatures };
std::string_view ToString(BlockType type);

struct BodyBlock {
  BlockType type = BlockType::kParagraph;
  std::string text;       // heading and paragraph; paragraphs may hold {{fieldKey}} placeholders
  int64_t level = 1;      // heading only, 1..3
  std::string table_key;  // table only
};

enum class OrganizationSigningMode { kAutomatic, kManual };
std::string_view ToString(OrganizationSigningMode mode);

struct TemplateSettings {
  OrganizationSigningMode organization_signing_mode = OrganizationSigningMode::kAutomatic;
  boost::json::object notifications;  // template-level defaults, validated like an override
};

struct TemplateVersion {
  std::string template_version_id;
  bool published = false;
  TemplateSettings settings;
  std::vector<SectionDef> sections;
  std::vector<RoleDef> roles;  // ids unique
  std::vector<BodyBlock> body;
  // A version made from uploads (DESIGN section 20) has documents and placed fields instead of
  // an input schema and a body. A rendered version's fields are its roles' `fields`, on the pages
  // it renders (document_index 0). Either way each field's participant_id is the id of the role
  // it belongs to, and its id is unique in the version.
  std::vector<ContractDocument> documents;
  std::vector<PlacedField> fields;

  bool from_uploads() const { return !documents.empty(); }
  // Field keys are unique across the version and distinct from table keys.
  const FieldDef* FindField(std::string_view key) const;
  const TableDef* FindTable(std::string_view table_key) const;
  const RoleDef* FindRole(std::string_view template_role_id) const;
  const SectionDef* FindSection(std::string_view key) const;
};

struct Template {
  std::string template_id;
  std::string name;
  std::string description;
  std::vector<TemplateVersion> versions;  // at most one published
  // The owner; nullopt for a platform template (imported by the command line), which every
  // organization sees. Set from the template's events (template_events.h), never by a file.
  std::optional<std::string> organization_id;
  bool archived = false;  // no new contract may start from it; existing contracts keep it

  // Whether the organization may read it and start contracts from it (unless archived).
  bool VisibleTo(std::string_view organization) const;
  const TemplateVersion* FindVersion(std::string_view template_version_id) const;
  const TemplateVersion* PublishedVersion() const;
};

// The version a contract uses: the one named, else the published one. kTemplateVersionNotFound
// (detail field "templateVersionId") when the named version does not exist or none is published.
Result<const TemplateVersion*> SelectTemplateVersion(const Template& tmpl,
                                                     std::optional<std::string_view> version_id);

}  // namespace esign
