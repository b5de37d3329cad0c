#include "domain/template_importer.h"

#include <cmath>
#include <set>
#include <string>

#include "base/json_read.h"
#include "domain/decimal.h"
#include "domain/json_parse.h"
#include "domain/json_util.h"
#include "domain/notifications.h"
#include "domain/placed_field_rules.h"
#include "domain/placeholders.h"
#include "domain/text_formats.h"

namespace esign {
namespace {

constexpr size_t kMaxLabel = 500;
constexpr size_t kMaxText = 20000;

// Readers of one member each: they report a problem as "<path>.<key>" and return nullopt when
// the member is absent or wrong, so parsing goes on and every problem is reported in one pass.
class Reader {
 public:
  explicit Reader(Details& details) : details_(details) {}

  Details& details() { return details_; }

  std::optional<std::string> Text(const boost::json::object& object, const std::string& path,
                                  std::string_view key, bool required, size_t max_size,
                                  bool allow_empty = false) {
    const auto* value = Member(object, key);
    if (value == nullptr) {
      if (required) AddDetail(details_, JoinPath(path, key), "required");
      return std::nullopt;
    }
    if (!value->is_string()) {
      AddDetail(details_, JoinPath(path, key), "must be a string");
      return std::nullopt;
    }
    std::string text(value->get_string());
    if (text.empty() && !allow_empty) {
      AddDetail(details_, JoinPath(path, key), "must not be empty");
      return std::nullopt;
    }
    if (text.size() > max_size) {
      AddDetail(details_, JoinPath(path, key),
                "longer than " + std::to_string(max_size) + " characters");
      return std::nullopt;
    }
    return text;
  }

  // Keys and ids: ^[A-Za-z0-9_-]{1,64}$, so they are safe in paths, placeholders and URLs.
  std::optional<std::string> Key(const boost::json::object& object, const std::string& path,
                                 std::string_view key) {
    auto text = Text(object, path, key, true, 64);
    if (text && !IsClientIdentifier(*text)) {
      AddDetail(details_, JoinPath(path, key), "must match ^[A-Za-z0-9_-]{1,64}$");
      return std::nullopt;
    }
    return text;
  }

  std::optional<bool> Bool(const boost::json::object& object, const std::string& path,
                           std::string_view key) {
    const auto* value = Member(object, key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_bool()) {
      AddDetail(details_, JoinPath(path, key), "must be a boolean");
      return std::nullopt;
    }
    return value->get_bool();
  }

  std::optional<int64_t> Integer(const boost::json::object& object, const std::string& path,
                                 std::string_view key, int64_t min, int64_t max) {
    const auto* value = Member(object, key);
    if (value == nullptr) return std::nullopt;
    auto number = AsInteger(*value);
    if (!number) {
      AddDetail(details_, JoinPath(path, key), "must be an integer");
      return std::nullopt;
    }
    if (*number < min || *number > max) {
      AddDetail(details_, JoinPath(path, key),
                "must be " + std::to_string(min) + ".." + std::to_string(max));
      return std::nullopt;
    }
    return number;
  }

  std::optional<double> Number(const boost::json::object& object, const std::string& path,
                               std::string_view key, bool positive) {
    const auto* value = Member(object, key);
    if (value == nullptr) {
      AddDetail(details_, JoinPath(path, key), "required");
      return std::nullopt;
    }
    if (!value->is_number()) {
      AddDetail(details_, JoinPath(path, key), "must be a number");
      return std::nullopt;
    }
    double number = value->to_number<double>();
    if (!std::isfinite(number) || number < 0 || (positive && number == 0)) {
      AddDetail(details_, JoinPath(path, key), positive ? "must be positive" : "must be >= 0");
      return std::nullopt;
    }
    return number;
  }

  const boost::json::array* Array(const boost::json::object& object, const std::string& path,
                                  std::string_view key, bool required) {
    const auto* value = Member(object, key);
    if (value == nullptr) {
      if (required) AddDetail(details_, JoinPath(path, key), "required");
      return nullptr;
    }
    if (!value->is_array()) {
      AddDetail(details_, JoinPath(path, key), "must be an array");
      return nullptr;
    }
    return &value->get_array();
  }

  const boost::json::object* Object(const boost::json::value& value, const std::string& path) {
    if (!value.is_object()) {
      AddDetail(details_, path, "must be an object");
      return nullptr;
    }
    return &value.get_object();
  }

  void Problem(std::string path, std::string issue) {
    AddDetail(details_, std::move(path), std::move(issue));
  }

 private:
  Details& details_;
};

// The keys of one version, for uniqueness and reference checks.
struct KeyIndex {
  std::set<std::string> fields;
  std::set<std::string> tables;
  std::set<std::string> columns_of_any_table;
};

std::optional<std::string> ReadLimit(Reader& r, const boost::json::object& object,
                                     const std::string& path, std::string_view key,
                                     FieldType type) {
  const auto* value = Member(object, key);
  if (value == nullptr) return std::nullopt;
  std::string member_path = JoinPath(path, key);
  if (type == FieldType::kInteger) {
    auto number = AsInteger(*value);
    if (!number) {
      r.Problem(member_path, "must be an integer");
      return std::nullopt;
    }
    return std::to_string(*number);
  }
  if (type == FieldType::kDecimal) {
    auto decimal = DecimalFromJson(*value);
    if (!decimal) r.Problem(member_path, "must be a decimal (string or number)");
    return decimal;
  }
  r.Problem(member_path, "only integer and decimal fields have " + std::string(key));
  return std::nullopt;
}

std::optional<FieldDef> ReadField(Reader& r, const boost::json::value& value,
                                  const std::string& path) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  RejectUnknownMembers(*object, path,
                       {"key", "label", "type", "required", "description", "options", "minLength",
                        "maxLength", "minimum", "maximum"},
                       r.details());
  size_t problems = r.details().size();
  FieldDef field;
  auto key = r.Key(*object, path, "key");
  auto label = r.Text(*object, path, "label", true, kMaxLabel);
  auto type_text = r.Text(*object, path, "type", true, 32);
  std::optional<FieldType> type;
  if (type_text) {
    type = ParseFieldType(*type_text);
    if (!type) {
      r.Problem(JoinPath(path, "type"),
                "must be one of string, text, integer, decimal, boolean, date, email, enum");
    }
  }
  field.required = r.Bool(*object, path, "required").value_or(false);
  field.description = r.Text(*object, path, "description", false, kMaxText, true);
  if (!type) return std::nullopt;
  field.type = *type;

  const auto* options = r.Array(*object, path, "options", false);
  if (field.type == FieldType::kEnum) {
    if (options == nullptr || options->empty()) {
      if (Member(*object, "options") == nullptr || options != nullptr) {
        r.Problem(JoinPath(path, "options"), "an enum field needs at least one option");
      }
    } else {
      std::set<std::string> seen;
      for (size_t i = 0; i < options->size(); ++i) {
        const auto& option = (*options)[i];
        std::string option_path = IndexPath(JoinPath(path, "options"), i);
        if (!option.is_string() || option.get_string().empty()) {
          r.Problem(option_path, "must be a non-empty string");
        } else if (!seen.insert(std::string(option.get_string())).second) {
          r.Problem(option_path, "duplicate option");
        } else {
          field.options.emplace_back(option.get_string());
        }
      }
    }
  } else if (Member(*object, "options") != nullptr) {
    r.Problem(JoinPath(path, "options"), "only enum fields have options");
  }

  bool textual = field.type == FieldType::kString || field.type == FieldType::kText;
  for (std::string_view limit : {"minLength", "maxLength"}) {
    if (Member(*object, limit) != nullptr && !textual) {
      r.Problem(JoinPath(path, limit), "only string and text fields have " + std::string(limit));
    }
  }
  if (textual) {
    field.min_length = r.Integer(*object, path, "minLength", 0, 1000000);
    field.max_length = r.Integer(*object, path, "maxLength", 1, 1000000);
    if (field.min_length && field.max_length && *field.min_length > *field.max_length) {
      r.Problem(JoinPath(path, "minLength"), "greater than maxLength");
    }
  }
  field.minimum = ReadLimit(r, *object, path, "minimum", field.type);
  field.maximum = ReadLimit(r, *object, path, "maximum", field.type);
  if (field.minimum && field.maximum && CompareDecimals(*field.minimum, *field.maximum) > 0) {
    r.Problem(JoinPath(path, "minimum"), "greater than maximum");
  }
  if (!key || !label || r.details().size() != problems) return std::nullopt;
  field.key = *key;
  field.label = *label;
  return field;
}

std::optional<TableDef> ReadTable(Reader& r, const boost::json::value& value,
                                  const std::string& path) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  RejectUnknownMembers(*object, path, {"tableKey", "label", "columns", "minRows", "maxRows"},
                       r.details());
  TableDef table;
  auto key = r.Key(*object, path, "tableKey");
  auto label = r.Text(*object, path, "label", false, kMaxLabel);
  table.min_rows = r.Integer(*object, path, "minRows", 0, 1000).value_or(0);
  table.max_rows = r.Integer(*object, path, "maxRows", 1, 1000);
  if (table.max_rows && table.min_rows > *table.max_rows) {
    r.Problem(JoinPath(path, "minRows"), "greater than maxRows");
  }
  std::set<std::string> column_keys;
  if (const auto* columns = r.Array(*object, path, "columns", true)) {
    if (columns->empty()) r.Problem(JoinPath(path, "columns"), "a table needs at least one column");
    for (size_t i = 0; i < columns->size(); ++i) {
      std::string column_path = IndexPath(JoinPath(path, "columns"), i);
      auto column = ReadField(r, (*columns)[i], column_path);
      if (!column) continue;
      if (!column_keys.insert(column->key).second) {
        r.Problem(JoinPath(column_path, "key"), "duplicate column key in this table");
        continue;
      }
      table.columns.push_back(std::move(*column));
    }
  }
  // The label is optional (DESIGN 18): without one, the table is shown by its key.
  if (!key || (!label && object->contains("label"))) return std::nullopt;
  table.table_key = *key;
  table.label = label.value_or(*key);
  return table;
}

std::optional<SectionDef> ReadSection(Reader& r, const boost::json::value& value,
                                      const std::string& path, KeyIndex& keys) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  RejectUnknownMembers(*object, path, {"key", "title", "description", "fields", "tables"},
                       r.details());
  SectionDef section;
  auto key = r.Key(*object, path, "key");
  auto title = r.Text(*object, path, "title", true, kMaxLabel);
  r.Text(*object, path, "description", false, kMaxText, true);
  if (const auto* fields = r.Array(*object, path, "fields", false)) {
    for (size_t i = 0; i < fields->size(); ++i) {
      std::string field_path = IndexPath(JoinPath(path, "fields"), i);
      auto field = ReadField(r, (*fields)[i], field_path);
      if (!field) continue;
      if (!keys.fields.insert(field->key).second) {
        r.Problem(JoinPath(field_path, "key"), "duplicate field key in this template version");
        continue;
      }
      section.fields.push_back(std::move(*field));
    }
  }
  if (const auto* tables = r.Array(*object, path, "tables", false)) {
    for (size_t i = 0; i < tables->size(); ++i) {
      std::string table_path = IndexPath(JoinPath(path, "tables"), i);
      auto table = ReadTable(r, (*tables)[i], table_path);
      if (!table) continue;
      if (!keys.tables.insert(table->table_key).second) {
        r.Problem(JoinPath(table_path, "tableKey"), "duplicate table key in this template version");
        continue;
      }
      for (const auto& column : table->columns) keys.columns_of_any_table.insert(column.key);
      section.tables.push_back(std::move(*table));
    }
  }
  if (!key || !title) return std::nullopt;
  section.key = *key;
  section.title = *title;
  return section;
}

std::optional<SignaturePlacement> ReadPlacement(Reader& r, const boost::json::value& value,
                                                const std::string& path) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  RejectUnknownMembers(*object, path, {"page", "x", "y", "width", "height"}, r.details());
  auto page = r.Integer(*object, path, "page", 1, 10000);
  if (Member(*object, "page") == nullptr) r.Problem(JoinPath(path, "page"), "required");
  auto x = r.Number(*object, path, "x", false);
  auto y = r.Number(*object, path, "y", false);
  auto width = r.Number(*object, path, "width", true);
  auto height = r.Number(*object, path, "height", true);
  if (!page || !x || !y || !width || !height) return std::nullopt;
  return SignaturePlacement{*page, *x, *y, *width, *height};
}

// A role's `fields` are read with the version's others (ReadRoleFields), where rendered.
enum class RoleFields { kRefused, kRead };

std::optional<RoleDef> ReadRole(Reader& r, const boost::json::value& value, const std::string& path,
                                RoleFields fields) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  RejectUnknownMembers(*object, path,
                       {"templateRoleId", "name", "description", "action", "recipientType",
                        "routingOrder", "required", "signaturePlacement",
                        fields == RoleFields::kRead ? "fields" : "signaturePlacement"},
                       r.details());
  size_t problems = r.details().size();
  RoleDef role;
  auto id = r.Key(*object, path, "templateRoleId");
  auto name = r.Text(*object, path, "name", true, kMaxLabel);
  role.description = r.Text(*object, path, "description", false, kMaxText, true);
  auto action_text = r.Text(*object, path, "action", true, 32);
  std::optional<ParticipantAction> action;
  if (action_text) action = ParseParticipantAction(*action_text);
  if (action_text && !action) {
    r.Problem(JoinPath(path, "action"), "must be sign, view or receive_copy");
  }
  auto type_text = r.Text(*object, path, "recipientType", true, 32);
  std::optional<RecipientType> type;
  if (type_text) type = ParseRecipientType(*type_text);
  if (type_text && !type) {
    r.Problem(JoinPath(path, "recipientType"), "must be individual or organization");
  }
  role.routing_order = r.Integer(*object, path, "routingOrder", 1, 100).value_or(1);
  role.required = r.Bool(*object, path, "required").value_or(false);
  const auto* placements = r.Array(*object, path, "signaturePlacement", false);
  if (action == ParticipantAction::kSign) {
    if (placements == nullptr || placements->empty()) {
      r.Problem(JoinPath(path, "signaturePlacement"), "a sign role needs at least one placement");
    } else {
      for (size_t i = 0; i < placements->size(); ++i) {
        auto placement =
            ReadPlacement(r, (*placements)[i], IndexPath(JoinPath(path, "signaturePlacement"), i));
        if (placement) role.signature_placement.push_back(*placement);
      }
    }
  } else if (action && placements != nullptr && !placements->empty()) {
    r.Problem(JoinPath(path, "signaturePlacement"), "only sign roles have signature placements");
  }
  if (!id || !name || !action || !type || r.details().size() != problems) return std::nullopt;
  role.template_role_id = *id;
  role.name = *name;
  role.action = *action;
  role.recipient_type = *type;
  return role;
}

std::optional<BodyBlock> ReadBlock(Reader& r, const boost::json::value& value,
                                   const std::string& path, const KeyIndex& keys) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  auto type = r.Text(*object, path, "type", true, 32);
  if (!type) return std::nullopt;
  BodyBlock block;
  if (*type == "heading" || *type == "paragraph") {
    bool heading = *type == "heading";
    block.type = heading ? BlockType::kHeading : BlockType::kParagraph;
    if (heading) {
      RejectUnknownMembers(*object, path, {"type", "text", "level"}, r.details());
      block.level = r.Integer(*object, path, "level", 1, 3).value_or(1);
    } else {
      RejectUnknownMembers(*object, path, {"type", "text"}, r.details());
    }
    auto text = r.Text(*object, path, "text", true, kMaxText);
    if (!text) return std::nullopt;
    auto pieces = SplitPlaceholders(*text);
    if (!pieces) {
      r.Problem(JoinPath(path, "text"), "unbalanced or empty {{placeholder}}");
      return std::nullopt;
    }
    for (const auto& piece : *pieces) {
      if (!piece.is_placeholder) continue;
      if (keys.fields.count(piece.text) == 0) {
        std::string issue = "placeholder {{" + piece.text + "}} names no field";
        if (keys.tables.count(piece.text) != 0) issue += " (tables are placed with a table block)";
        r.Problem(JoinPath(path, "text"), issue);
      }
    }
    block.text = std::move(*text);
    return block;
  }
  if (*type == "table") {
    RejectUnknownMembers(*object, path, {"type", "tableKey"}, r.details());
    block.type = BlockType::kTable;
    auto key = r.Text(*object, path, "tableKey", true, 64);
    if (!key) return std::nullopt;
    if (keys.tables.count(*key) == 0) {
      r.Problem(JoinPath(path, "tableKey"), "names no table of this version");
      return std::nullopt;
    }
    block.table_key = *key;
    return block;
  }
  if (*type == "signatures") {
    RejectUnknownMembers(*object, path, {"type"}, r.details());
    block.type = BlockType::kSignatures;
    return block;
  }
  r.Problem(JoinPath(path, "type"), "must be heading, paragraph, table or signatures");
  return std::nullopt;
}

void ReadSettings(Reader& r, const boost::json::object& version, const std::string& path,
                  TemplateSettings& settings) {
  const auto* value = Member(version, "settings");
  if (value == nullptr) return;
  std::string settings_path = JoinPath(path, "settings");
  const auto* object = r.Object(*value, settings_path);
  if (object == nullptr) return;
  RejectUnknownMembers(*object, settings_path, {"organizationSigningMode", "notifications"},
                       r.details());
  if (auto mode = r.Text(*object, settings_path, "organizationSigningMode", false, 32)) {
    if (*mode == "automatic") {
      settings.organization_signing_mode = OrganizationSigningMode::kAutomatic;
    } else if (*mode == "manual") {
      settings.organization_signing_mode = OrganizationSigningMode::kManual;
    } else {
      r.Problem(JoinPath(settings_path, "organizationSigningMode"), "must be automatic or manual");
    }
  }
  if (const auto* notifications = Member(*object, "notifications")) {
    size_t before = r.details().size();
    CheckNotificationSettings(*notifications, JoinPath(settings_path, "notifications"),
                              r.details());
    if (r.details().size() == before) settings.notifications = notifications->get_object();
  }
}

void ReadRoles(Reader& r, const boost::json::object& object, const std::string& path,
               TemplateVersion& version, RoleFields fields) {
  const auto* roles = r.Array(object, path, "roles", true);
  if (roles == nullptr) return;
  std::set<std::string> role_ids;
  for (size_t i = 0; i < roles->size(); ++i) {
    std::string role_path = IndexPath(JoinPath(path, "roles"), i);
    auto role = ReadRole(r, (*roles)[i], role_path, fields);
    if (!role) continue;
    if (!role_ids.insert(role->template_role_id).second) {
      r.Problem(JoinPath(role_path, "templateRoleId"), "duplicate role id");
      continue;
    }
    version.roles.push_back(std::move(*role));
  }
  if (fields == RoleFields::kRead) {
    version.fields = ReadRoleFields(*roles, JoinPath(path, "roles"), r.details());
  }
}

// The documents and placed fields of a version made from uploads, as the server wrote them
// (template_events.h checked the request they came from): each field names a role of the version
// and a document of it.
void ReadUploadedDocuments(Reader& r, const boost::json::object& object, const std::string& path,
                           TemplateVersion& version) {
  for (std::string_view key : {"inputSchema", "body"}) {
    if (Member(object, key) != nullptr) {
      r.Problem(JoinPath(path, key), "a version made from documents has no " + std::string(key));
    }
  }
  if (const auto* documents = r.Array(object, path, "documents", true)) {
    if (documents->empty()) r.Problem(JoinPath(path, "documents"), "at least one document");
    for (size_t i = 0; i < documents->size(); ++i) {
      const std::string document_path = IndexPath(JoinPath(path, "documents"), i);
      const auto* document = r.Object((*documents)[i], document_path);
      if (document == nullptr) continue;
      ContractDocument read = ContractDocumentFromJson(*document);
      if (read.document_id.empty() || read.sha256.empty() || read.pages.empty()) {
        r.Problem(document_path, "needs documentId, sha256 and pages");
        continue;
      }
      version.documents.push_back(std::move(read));
    }
  }
  if (const auto* fields = r.Array(object, path, "fields", true)) {
    for (size_t i = 0; i < fields->size(); ++i) {
      const std::string field_path = IndexPath(JoinPath(path, "fields"), i);
      const auto* field = r.Object((*fields)[i], field_path);
      if (field == nullptr) continue;
      PlacedField read = PlacedFieldFromJson(*field, "templateRoleId");
      if (version.FindRole(read.participant_id) == nullptr) {
        r.Problem(JoinPath(field_path, "templateRoleId"), "names no role of the version");
      } else if (ComposedPage(version.documents, static_cast<size_t>(read.document_index),
                              read.box.page) == 0) {
        r.Problem(field_path, "names no page of the version's documents");
      } else {
        version.fields.push_back(std::move(read));
      }
    }
  }
}

std::optional<TemplateVersion> ReadVersion(Reader& r, const boost::json::value& value,
                                           const std::string& path, VersionSources sources) {
  const auto* object = r.Object(value, path);
  if (object == nullptr) return std::nullopt;
  const bool from_uploads =
      sources == VersionSources::kBodyOrUploads && Member(*object, "documents") != nullptr;
  if (from_uploads) {
    RejectUnknownMembers(*object, path,
                         {"templateVersionId", "published", "settings", "roles", "documents",
                          "fields", "inputSchema", "body"},
                         r.details());
  } else {
    RejectUnknownMembers(
        *object, path,
        {"templateVersionId", "published", "settings", "inputSchema", "roles", "body"},
        r.details());
  }
  TemplateVersion version;
  auto id = r.Key(*object, path, "templateVersionId");
  version.published = r.Bool(*object, path, "published").value_or(false);
  ReadSettings(r, *object, path, version.settings);
  if (from_uploads) {
    ReadRoles(r, *object, path, version, RoleFields::kRefused);
    ReadUploadedDocuments(r, *object, path, version);
    if (!id) return std::nullopt;
    version.template_version_id = *id;
    return version;
  }

  KeyIndex keys;
  std::string schema_path = JoinPath(path, "inputSchema");
  const auto* schema_value = Member(*object, "inputSchema");
  if (schema_value == nullptr) {
    r.Problem(schema_path, "required");
  } else if (const auto* schema = r.Object(*schema_value, schema_path)) {
    RejectUnknownMembers(*schema, schema_path, {"sections"}, r.details());
    if (const auto* sections = r.Array(*schema, schema_path, "sections", true)) {
      std::set<std::string> section_keys;
      for (size_t i = 0; i < sections->size(); ++i) {
        std::string section_path = IndexPath(JoinPath(schema_path, "sections"), i);
        auto section = ReadSection(r, (*sections)[i], section_path, keys);
        if (!section) continue;
        if (!section_keys.insert(section->key).second) {
          r.Problem(JoinPath(section_path, "key"), "duplicate section key");
          continue;
        }
        version.sections.push_back(std::move(*section));
      }
    }
  }
  // A key used for both a field and a table would make `data` and placeholders ambiguous; a
  // field named like a column would let table cells pass as field values.
  for (size_t s = 0; s < version.sections.size(); ++s) {
    for (size_t f = 0; f < version.sections[s].fields.size(); ++f) {
      const std::string& key = version.sections[s].fields[f].key;
      std::string field_path = JoinPath(
          IndexPath(JoinPath(IndexPath(JoinPath(schema_path, "sections"), s), "fields"), f), "key");
      if (keys.tables.count(key) != 0) {
        r.Problem(field_path, "the same key names a table");
      } else if (keys.columns_of_any_table.count(key) != 0) {
        r.Problem(field_path, "the same key names a table column");
      }
    }
  }

  ReadRoles(r, *object, path, version, RoleFields::kRead);

  if (const auto* body = r.Array(*object, path, "body", true)) {
    if (body->empty()) r.Problem(JoinPath(path, "body"), "the body needs at least one block");
    for (size_t i = 0; i < body->size(); ++i) {
      auto block = ReadBlock(r, (*body)[i], IndexPath(JoinPath(path, "body"), i), keys);
      if (block) version.body.push_back(std::move(*block));
    }
  }
  if (!id) return std::nullopt;
  version.template_version_id = *id;
  return version;
}

}  // namespace

Result<Template> ImportTemplate(const boost::json::value& document, VersionSources sources) {
  Details details;
  Reader r(details);
  Template tmpl;
  const auto* object = r.Object(document, "");
  if (object != nullptr) {
    RejectUnknownMembers(*object, "", {"templateId", "name", "description", "versions"}, details);
    auto id = r.Key(*object, "", "templateId");
    auto name = r.Text(*object, "", "name", true, kMaxLabel);
    auto description = r.Text(*object, "", "description", false, kMaxText, true);
    if (id) tmpl.template_id = *id;
    if (name) tmpl.name = *name;
    if (description) tmpl.description = *description;
    if (const auto* versions = r.Array(*object, "", "versions", true)) {
      if (versions->empty()) r.Problem("versions", "a template needs at least one version");
      std::set<std::string> version_ids;
      int published = 0;
      for (size_t i = 0; i < versions->size(); ++i) {
        std::string version_path = IndexPath("versions", i);
        auto version = ReadVersion(r, (*versions)[i], version_path, sources);
        if (!version) continue;
        if (!version_ids.insert(version->template_version_id).second) {
          r.Problem(JoinPath(version_path, "templateVersionId"), "duplicate version id");
        }
        if (version->published && ++published > 1) {
          r.Problem(JoinPath(version_path, "published"), "at most one version is published");
        }
        tmpl.versions.push_back(std::move(*version));
      }
    }
  }
  if (!details.empty()) {
    std::string message = "template is invalid";
    if (!tmpl.template_id.empty()) message = "template " + tmpl.template_id + " is invalid";
    return Fail(Error{ErrorCode::kTemplateInvalid, std::move(message), std::move(details)});
  }
  return tmpl;
}

Result<Template> ImportTemplateText(std::string_view text) {
  auto document = ParseJson(text);
  if (!document) {
    Error error = std::move(document.error());
    error.code = ErrorCode::kTemplateInvalid;
    return Fail(std::move(error));
  }
  return ImportTemplate(*document);
}

}  // namespace esign
