// The documents of a contract made from uploads, and the fields placed on them (DESIGN section
// 20). A contract is made either from a template version (rendered) or from uploaded documents
// (composed in order into one PDF); ContractState::documents is empty for the first kind, whose
// fields (its template roles' `fields`) are placed on the pages of the rendered PDF.
//
// Coordinates are PDF points from the top-left corner of the page as displayed (the crop box with
// the page's rotation applied), x to the right and y down: the frame of the page images.
// Value types; safe to share read-only between threads.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/signer_field_rules.h"

namespace esign {

// A box on one page of one document.
struct PageRect {
  int64_t page = 1;  // 1-based, within its document
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
};

struct DocumentPage {
  double width = 0;   // points, as displayed
  double height = 0;  // points, as displayed
};

// One uploaded document as a contract holds it (contract.created).
struct ContractDocument {
  std::string document_id;    // doc_...
  std::string name;           // as the contract names it (default: the upload's name)
  std::string sha256;         // the cleaned upload: the blob shown, stamped and sealed
  std::string upload_sha256;  // the bytes as they were uploaded
  std::vector<DocumentPage> pages;
  // The text tags' boxes, covered by a white box in the copy shown and sealed.
  std::vector<PageRect> covers;
  // The AcroForm fields mapped to placed fields, whose widgets the copy shown and sealed drops.
  std::vector<std::string> mapped_form_fields;
};

// signature, initials, name, email and date_signed are filled in at signing from the signer's
// signature and record; text, number, date, checkbox, radio, dropdown, phone and attachment (a
// file the signer uploads to their session) are filled in by
// the signer (domain/signer_field_rules.h), or fixed by the integrator's `value`.
enum class PlacedFieldType {
  kSignature,
  kInitials,
  kName,
  kEmail,
  kDateSigned,
  kText,
  kNumber,
  kDate,
  kCheckbox,
  kRadio,
  kDropdown,
  kPhone,
  kAttachment
};
std::string_view ToString(PlacedFieldType type);
std::optional<PlacedFieldType> ParsePlacedFieldType(std::string_view text);
// The input type of a field its signer fills in; nullopt for the types filled in at signing.
std::optional<SignerInputType> InputTypeOf(PlacedFieldType type);

// How a field got its box.
enum class FieldPlacement { kCoordinates, kTextTag, kFormField };
std::string_view ToString(FieldPlacement placement);

struct PlacedField {
  std::string field_id;  // fld_1, fld_2, ... in request order (tags and form fields after)
  PlacedFieldType type = PlacedFieldType::kSignature;
  std::string participant_id;
  int64_t document_index = 0;  // 0-based, into ContractState::documents; 0 when rendered
  PageRect box;
  bool required = true;
  std::string name;  // optional label
  FieldPlacement placement = FieldPlacement::kCoordinates;
  // A field its signer fills in: what it accepts (rules.required mirrors `required`).
  std::optional<SignerFieldRules> rules;
  // The integrator's value, fixed at creation (read_only), or the signer's once signed; null
  // before. Stored as signer_field_rules.h stores values.
  boost::json::value value;
  bool read_only = false;

  bool filled_by_signer() const { return rules.has_value() && !read_only; }
};

// Page `page` of document `document_index` as a 1-based page of the composed PDF (the documents'
// pages in order); 0 when either is out of range. Without documents (a contract or version whose
// PDF its template renders, where fields name the rendered pages, document_index 0), the page
// itself: how many pages the rendering has is known only once it is rendered.
int64_t ComposedPage(const std::vector<ContractDocument>& documents, size_t document_index,
                     int64_t page);

boost::json::object PageRectToJson(const PageRect& rect);
PageRect PageRectFromJson(const boost::json::object& object);
boost::json::array DocumentPagesToJson(const std::vector<DocumentPage>& pages);
std::vector<DocumentPage> DocumentPagesFromJson(const boost::json::value* pages);

boost::json::object ContractDocumentToJson(const ContractDocument& document);
ContractDocument ContractDocumentFromJson(const boost::json::object& object);
// `owner_key` names the member of the field's owner: "participantId" in a contract,
// "templateRoleId" in a template version.
boost::json::object PlacedFieldToJson(const PlacedField& field,
                                      std::string_view owner_key = "participantId");
PlacedField PlacedFieldFromJson(const boost::json::object& object,
                                std::string_view owner_key = "participantId");

}  // namespace esign
