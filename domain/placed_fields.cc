#include "domain/placed_fields.h"

#include <array>
#include <utility>

#include "base/json_read.h"

namespace esign {
namespace {

constexpr std::array<std::pair<PlacedFieldType, std::string_view>, 13> kFieldTypes{{
    {PlacedFieldType::kSignature, "signature"},
    {PlacedFieldType::kInitials, "initials"},
    {PlacedFieldType::kName, "name"},
    {PlacedFieldType::kEmail, "email"},
    {PlacedFieldType::kDateSigned, "date_signed"},
    {PlacedFieldType::kText, "text"},
    {PlacedFieldType::kNumber, "number"},
    {PlacedFieldType::kDate, "date"},
    {PlacedFieldType::kCheckbox, "checkbox"},
    {PlacedFieldType::kRadio, "radio"},
    {PlacedFieldType::kDropdown, "dropdown"},
    {PlacedFieldType::kPhone, "phone"},
    {PlacedFieldType::kAttachment, "attachment"},
}};

}  // namespace

boost::json::object PageRectToJson(const PageRect& rect) {
  return {{"page", rect.page},
          {"x", rect.x},
          {"y", rect.y},
          {"width", rect.width},
          {"height", rect.height}};
}

PageRect PageRectFromJson(const boost::json::object& object) {
  return PageRect{IntegerMember(object, "page").value_or(1), NumberMember(object, "x").value_or(0),
                  NumberMember(object, "y").value_or(0), NumberMember(object, "width").value_or(0),
                  NumberMember(object, "height").value_or(0)};
}

boost::json::array DocumentPagesToJson(const std::vector<DocumentPage>& pages) {
  boost::json::array out;
  for (const auto& page : pages) out.push_back({{"width", page.width}, {"height", page.height}});
  return out;
}

std::vector<DocumentPage> DocumentPagesFromJson(const boost::json::value* pages) {
  std::vector<DocumentPage> out;
  if (pages == nullptr || !pages->is_array()) return out;
  for (const auto& page : pages->get_array()) {
    if (!page.is_object()) continue;
    out.push_back(DocumentPage{NumberMember(page.get_object(), "width").value_or(0),
                               NumberMember(page.get_object(), "height").value_or(0)});
  }
  return out;
}

std::string_view ToString(PlacedFieldType type) {
  for (const auto& [value, text] : kFieldTypes) {
    if (value == type) return text;
  }
  return "signature";
}

std::optional<PlacedFieldType> ParsePlacedFieldType(std::string_view text) {
  for (const auto& [value, name] : kFieldTypes) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::optional<SignerInputType> InputTypeOf(PlacedFieldType type) {
  switch (type) {
    case PlacedFieldType::kText:
      return SignerInputType::kText;
    case PlacedFieldType::kNumber:
      return SignerInputType::kNumber;
    case PlacedFieldType::kDate:
      return SignerInputType::kDate;
    case PlacedFieldType::kCheckbox:
      return SignerInputType::kCheckbox;
    case PlacedFieldType::kRadio:
      return SignerInputType::kRadio;
    case PlacedFieldType::kDropdown:
      return SignerInputType::kDropdown;
    case PlacedFieldType::kPhone:
      return SignerInputType::kPhone;
    case PlacedFieldType::kAttachment:
      return SignerInputType::kAttachment;
    default:
      return std::nullopt;
  }
}

std::string_view ToString(FieldPlacement placement) {
  switch (placement) {
    case FieldPlacement::kCoordinates:
      return "coordinates";
    case FieldPlacement::kTextTag:
      return "textTag";
    case FieldPlacement::kFormField:
      return "formField";
  }
  return "coordinates";
}

int64_t ComposedPage(const std::vector<ContractDocument>& documents, size_t document_index,
                     int64_t page) {
  if (documents.empty()) return document_index == 0 && page >= 1 ? page : 0;
  if (document_index >= documents.size() || page < 1 ||
      page > static_cast<int64_t>(documents[document_index].pages.size())) {
    return 0;
  }
  int64_t before = 0;
  for (size_t i = 0; i < document_index; ++i) {
    before += static_cast<int64_t>(documents[i].pages.size());
  }
  return before + page;
}

boost::json::object ContractDocumentToJson(const ContractDocument& document) {
  boost::json::array covers;
  for (const auto& cover : document.covers) covers.push_back(PageRectToJson(cover));
  boost::json::array mapped;
  for (const auto& name : document.mapped_form_fields) mapped.push_back(boost::json::string(name));
  return {{"documentId", document.document_id},
          {"name", document.name},
          {"sha256", document.sha256},
          {"uploadSha256", document.upload_sha256},
          {"pages", DocumentPagesToJson(document.pages)},
          {"covers", std::move(covers)},
          {"mappedFormFields", std::move(mapped)}};
}

ContractDocument ContractDocumentFromJson(const boost::json::object& object) {
  ContractDocument document;
  document.document_id = StringMemberOrEmpty(object, "documentId");
  document.name = StringMemberOrEmpty(object, "name");
  document.sha256 = StringMemberOrEmpty(object, "sha256");
  document.upload_sha256 = StringMemberOrEmpty(object, "uploadSha256");
  document.pages = DocumentPagesFromJson(Member(object, "pages"));
  if (const auto* covers = ArrayMember(object, "covers")) {
    for (const auto& cover : *covers) {
      if (cover.is_object()) document.covers.push_back(PageRectFromJson(cover.get_object()));
    }
  }
  if (const auto* mapped = ArrayMember(object, "mappedFormFields")) {
    for (const auto& name : *mapped) {
      if (name.is_string()) document.mapped_form_fields.emplace_back(name.get_string());
    }
  }
  return document;
}

boost::json::object PlacedFieldToJson(const PlacedField& field, std::string_view owner_key) {
  boost::json::object object = PageRectToJson(field.box);
  object["fieldId"] = field.field_id;
  object["type"] = ToString(field.type);
  object[owner_key] = field.participant_id;
  object["documentIndex"] = field.document_index;
  object["required"] = field.required;
  object["placement"] = ToString(field.placement);
  if (!field.name.empty()) object["name"] = field.name;
  if (field.rules) {
    for (auto& [key, rule] : SignerFieldRulesToJson(*field.rules)) object[key] = std::move(rule);
    object["readOnly"] = field.read_only;
  }
  if (!field.value.is_null()) object["value"] = field.value;
  return object;
}

PlacedField PlacedFieldFromJson(const boost::json::object& object, std::string_view owner_key) {
  PlacedField field;
  field.field_id = StringMemberOrEmpty(object, "fieldId");
  field.type =
      ParsePlacedFieldType(StringMemberOrEmpty(object, "type")).value_or(PlacedFieldType::kText);
  field.participant_id = StringMemberOrEmpty(object, owner_key);
  field.document_index = IntegerMember(object, "documentIndex").value_or(0);
  field.box = PageRectFromJson(object);
  const boost::json::value* required = Member(object, "required");
  field.required = required == nullptr || !required->is_bool() || required->get_bool();
  field.name = StringMemberOrEmpty(object, "name");
  if (const auto* value = Member(object, "value")) field.value = *value;
  if (auto input = InputTypeOf(field.type)) {
    field.rules = SignerFieldRulesFromJson(*input, object);
    field.rules->required = field.required;
    // Before readOnly was recorded, a text field's value was the integrator's, read-only.
    const boost::json::value* read_only = Member(object, "readOnly");
    field.read_only = read_only != nullptr ? read_only->is_bool() && read_only->get_bool()
                                           : !field.value.is_null();
  }
  const std::string placement = StringMemberOrEmpty(object, "placement");
  if (placement == "textTag") field.placement = FieldPlacement::kTextTag;
  if (placement == "formField") field.placement = FieldPlacement::kFormField;
  return field;
}

}  // namespace esign
