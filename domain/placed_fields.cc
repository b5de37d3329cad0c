#include "domain/placed_fields.h"

#include <array>
#include <utility>

#include "base/json_read.h"

namespace esign {
namespace {

constexpr std::array<std::pair<PlacedFieldType, std::string_view>, 6> kFieldTypes{{
    {PlacedFieldType::kSignature, "signature"},
    {PlacedFieldType::kInitials, "initials"},
    {PlacedFieldType::kName, "name"},
    {PlacedFieldType::kEmail, "email"},
    {PlacedFieldType::kDateSigned, "date_signed"},
    {PlacedFieldType::kText, "text"},
}};

double NumberOr(const boost::json::object& object, std::string_view key, double fallback) {
  const boost::json::value* value = Member(object, key);
  if (value == nullptr) return fallback;
  if (value->is_double()) return value->get_double();
  if (value->is_int64()) return static_cast<double>(value->get_int64());
  if (value->is_uint64()) return static_cast<double>(value->get_uint64());
  return fallback;
}

boost::json::object RectToJson(const PageRect& rect) {
  return {{"page", rect.page},
          {"x", rect.x},
          {"y", rect.y},
          {"width", rect.width},
          {"height", rect.height}};
}

PageRect RectFromJson(const boost::json::object& object) {
  return PageRect{IntegerMember(object, "page").value_or(1), NumberOr(object, "x", 0),
                  NumberOr(object, "y", 0), NumberOr(object, "width", 0),
                  NumberOr(object, "height", 0)};
}

}  // namespace

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
  boost::json::array pages;
  for (const auto& page : document.pages) {
    pages.push_back({{"width", page.width}, {"height", page.height}});
  }
  boost::json::array covers;
  for (const auto& cover : document.covers) covers.push_back(RectToJson(cover));
  boost::json::array mapped;
  for (const auto& name : document.mapped_form_fields) mapped.push_back(boost::json::string(name));
  return {{"documentId", document.document_id},
          {"name", document.name},
          {"sha256", document.sha256},
          {"uploadSha256", document.upload_sha256},
          {"pages", std::move(pages)},
          {"covers", std::move(covers)},
          {"mappedFormFields", std::move(mapped)}};
}

ContractDocument ContractDocumentFromJson(const boost::json::object& object) {
  ContractDocument document;
  document.document_id = StringMemberOrEmpty(object, "documentId");
  document.name = StringMemberOrEmpty(object, "name");
  document.sha256 = StringMemberOrEmpty(object, "sha256");
  document.upload_sha256 = StringMemberOrEmpty(object, "uploadSha256");
  if (const auto* pages = ArrayMember(object, "pages")) {
    for (const auto& page : *pages) {
      if (!page.is_object()) continue;
      document.pages.push_back(DocumentPage{NumberOr(page.get_object(), "width", 0),
                                            NumberOr(page.get_object(), "height", 0)});
    }
  }
  if (const auto* covers = ArrayMember(object, "covers")) {
    for (const auto& cover : *covers) {
      if (cover.is_object()) document.covers.push_back(RectFromJson(cover.get_object()));
    }
  }
  if (const auto* mapped = ArrayMember(object, "mappedFormFields")) {
    for (const auto& name : *mapped) {
      if (name.is_string()) document.mapped_form_fields.emplace_back(name.get_string());
    }
  }
  return document;
}

boost::json::object PlacedFieldToJson(const PlacedField& field) {
  boost::json::object object = RectToJson(field.box);
  object["fieldId"] = field.field_id;
  object["type"] = ToString(field.type);
  object["participantId"] = field.participant_id;
  object["documentIndex"] = field.document_index;
  object["required"] = field.required;
  object["placement"] = ToString(field.placement);
  if (!field.name.empty()) object["name"] = field.name;
  if (field.type == PlacedFieldType::kText) object["value"] = field.value;
  return object;
}

PlacedField PlacedFieldFromJson(const boost::json::object& object) {
  PlacedField field;
  field.field_id = StringMemberOrEmpty(object, "fieldId");
  field.type =
      ParsePlacedFieldType(StringMemberOrEmpty(object, "type")).value_or(PlacedFieldType::kText);
  field.participant_id = StringMemberOrEmpty(object, "participantId");
  field.document_index = IntegerMember(object, "documentIndex").value_or(0);
  field.box = RectFromJson(object);
  const boost::json::value* required = Member(object, "required");
  field.required = required == nullptr || !required->is_bool() || required->get_bool();
  field.name = StringMemberOrEmpty(object, "name");
  field.value = StringMemberOrEmpty(object, "value");
  const std::string placement = StringMemberOrEmpty(object, "placement");
  if (placement == "textTag") field.placement = FieldPlacement::kTextTag;
  if (placement == "formField") field.placement = FieldPlacement::kFormField;
  return field;
}

}  // namespace esign
