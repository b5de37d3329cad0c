// An uploaded document as document.uploaded records it (DESIGN section 20), and as the API shows
// it: what the upload check found in it (pages, text tags, AcroForm fields), what it removed and
// what the uploader should know. The stream is "document-<documentId>"; the document belongs to
// the uploading organization alone.
// Value types and pure functions; safe from any thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/placed_fields.h"
#include "domain/result.h"

namespace esign {

inline constexpr std::string_view kDocumentUploaded = "document.uploaded";
inline constexpr std::string_view kDocumentDeleted = "document.deleted";

struct UploadedDocument;
// The uploads of an organization named by a request, in order, leaving out the ids it does not
// have (commands/document_commands.h).
using FindUploads = std::function<Result<std::vector<UploadedDocument>>(
    std::string_view organization_id, const std::vector<std::string>& document_ids)>;

// A text tag written in the document: {{type:signer}} or {{type:signer:name}}, optionally ending
// in ":optional". `signer` is the participant's 1-based index in the contract request.
struct DocumentTextTag {
  std::string text;  // the whole tag, braces included
  std::string type;  // as written
  int64_t signer = 0;
  std::string name;
  bool optional = false;
  PageRect box;
};

struct DocumentFormField {
  std::string name;  // fully qualified
  std::string type;  // "text", "checkbox", "radio", "choice", "signature", "button"
  PageRect box;
};

struct UploadedDocument {
  std::string document_id;  // doc_...
  std::string organization_id;
  std::string name;
  std::string sha256;          // the bytes as uploaded
  std::string cleaned_sha256;  // the copy stored, shown and sealed (the blob key)
  uint64_t size = 0;           // bytes as uploaded
  uint64_t cleaned_size = 0;
  std::vector<DocumentPage> pages;
  std::vector<std::string> removed;
  std::vector<std::string> warnings;
  std::vector<DocumentTextTag> text_tags;
  std::vector<DocumentFormField> form_fields;
  std::string uploaded_at;
  std::string uploaded_by;  // client id
  std::string expires_at;   // when it is deleted unless a contract uses it
};

// document.uploaded's data; the same object, without the organization's internals, is the API's.
boost::json::object UploadedDocumentToJson(const UploadedDocument& document);
UploadedDocument UploadedDocumentFromJson(const boost::json::object& object);

}  // namespace esign
