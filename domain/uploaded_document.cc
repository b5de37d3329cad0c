#include "domain/uploaded_document.h"

#include "base/json_read.h"

namespace esign {
namespace {

boost::json::array Strings(const std::vector<std::string>& items) {
  boost::json::array out;
  for (const auto& item : items) out.push_back(boost::json::string(item));
  return out;
}

std::vector<std::string> StringsFrom(const boost::json::object& object, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* items = ArrayMember(object, key)) {
    for (const auto& item : *items) {
      if (item.is_string()) out.emplace_back(item.get_string());
    }
  }
  return out;
}

}  // namespace

boost::json::object UploadedDocumentToJson(const UploadedDocument& document) {
  boost::json::array tags;
  for (const auto& tag : document.text_tags) {
    boost::json::object item = PageRectToJson(tag.box);
    item["text"] = tag.text;
    item["type"] = tag.type;
    item["signer"] = tag.signer;
    if (!tag.name.empty()) item["name"] = tag.name;
    item["optional"] = tag.optional;
    tags.push_back(std::move(item));
  }
  boost::json::array fields;
  for (const auto& field : document.form_fields) {
    boost::json::object item = PageRectToJson(field.box);
    item["name"] = field.name;
    item["type"] = field.type;
    fields.push_back(std::move(item));
  }
  return {{"documentId", document.document_id},
          {"organizationId", document.organization_id},
          {"name", document.name},
          {"sha256", document.sha256},
          {"cleanedSha256", document.cleaned_sha256},
          {"size", document.size},
          {"cleanedSize", document.cleaned_size},
          {"pageCount", document.pages.size()},
          {"pages", DocumentPagesToJson(document.pages)},
          {"removed", Strings(document.removed)},
          {"warnings", Strings(document.warnings)},
          {"textTags", std::move(tags)},
          {"formFields", std::move(fields)},
          {"uploadedAt", document.uploaded_at},
          {"uploadedBy", document.uploaded_by},
          {"expiresAt", document.expires_at}};
}

UploadedDocument UploadedDocumentFromJson(const boost::json::object& object) {
  UploadedDocument document;
  document.document_id = StringMemberOrEmpty(object, "documentId");
  document.organization_id = StringMemberOrEmpty(object, "organizationId");
  document.name = StringMemberOrEmpty(object, "name");
  document.sha256 = StringMemberOrEmpty(object, "sha256");
  document.cleaned_sha256 = StringMemberOrEmpty(object, "cleanedSha256");
  document.size = UnsignedMember(object, "size").value_or(0);
  document.cleaned_size = UnsignedMember(object, "cleanedSize").value_or(0);
  document.pages = DocumentPagesFromJson(Member(object, "pages"));
  document.removed = StringsFrom(object, "removed");
  document.warnings = StringsFrom(object, "warnings");
  if (const auto* tags = ArrayMember(object, "textTags")) {
    for (const auto& tag : *tags) {
      if (!tag.is_object()) continue;
      const auto& t = tag.get_object();
      const boost::json::value* optional = Member(t, "optional");
      document.text_tags.push_back(DocumentTextTag{
          StringMemberOrEmpty(t, "text"), StringMemberOrEmpty(t, "type"),
          IntegerMember(t, "signer").value_or(0), StringMemberOrEmpty(t, "name"),
          optional != nullptr && optional->is_bool() && optional->get_bool(), PageRectFromJson(t)});
    }
  }
  if (const auto* fields = ArrayMember(object, "formFields")) {
    for (const auto& field : *fields) {
      if (!field.is_object()) continue;
      const auto& f = field.get_object();
      document.form_fields.push_back(DocumentFormField{
          StringMemberOrEmpty(f, "name"), StringMemberOrEmpty(f, "type"), PageRectFromJson(f)});
    }
  }
  document.uploaded_at = StringMemberOrEmpty(object, "uploadedAt");
  document.uploaded_by = StringMemberOrEmpty(object, "uploadedBy");
  document.expires_at = StringMemberOrEmpty(object, "expiresAt");
  return document;
}

}  // namespace esign
