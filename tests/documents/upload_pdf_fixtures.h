// What the tests of contracts from uploads share: two small hand-written PDFs with what
// uploads hold (a page that inherits its media box, a page turned by /Rotate 90, a crop box whose
// origin is not 0,0, a text tag, a form field's widget), a contract made from them with one
// field of each type, and pages drawn by pdftoppm at 72 dpi (one pixel a point) to look for ink.
#pragma once

#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "base/sha256.h"
#include "domain/contract_state.h"
#include "tests/documents/page_image.h"
#include "tests/documents/pdf_test_support.h"

namespace esign::upload_test {

// Page 1 (400 x 500, its media box inherited) shows the text tag {{signature:1}} at 52,399 and
// leaves its graphics state changed (a `cm` and a gray fill without q/Q); page 2 is /Rotate 90
// (500 x 400 as displayed) with a black square at 300,50 in its user space.
inline std::string TaggedPdf() {
  return documents::WritePdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 400 500] "
      "/Resources << /Font << /F1 7 0 R >> >> >>",
      "<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>",
      "<< /Type /Page /Parent 2 0 R /Rotate 90 /Contents 6 0 R >>",
      "STREAM:0 g BT /F1 12 Tf 52 399 Td ({{signature:1}}) Tj ET 20 20 30 30 re f "
      "1 0 0 1 100 100 cm 0.5 g",
      "STREAM:0 g 300 50 40 40 re f",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  });
}
// The tag's box on page 1, in the displayed frame.
inline PageRect TagBox() { return {.page = 1, .x = 48, .y = 86, .width = 100, .height = 20}; }

// One page: media box 600 x 700, crop box [100 150 500 650] (400 x 500 as displayed), a gray
// square, and the widget of the text field "client.sign" (black, at 300,500 in user space).
inline std::string FormPdf() {
  return documents::WritePdf({
      "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [7 0 R] >> >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 700] /CropBox [100 150 500 650] "
      "/Contents 4 0 R /Annots [6 0 R] >>",
      "STREAM:0.4 g 120 170 50 50 re f",
      "/Type /XObject /Subtype /Form /BBox [0 0 100 30] STREAM:0 g 0 0 100 30 re f",
      "<< /Type /Annot /Subtype /Widget /Parent 7 0 R /T (sign) /Rect [300 500 400 530] "
      "/F 4 /P 3 0 R /AP << /N 5 0 R >> >>",
      "<< /FT /Tx /T (client) /Kids [6 0 R] >>",
  });
}
// The widget's box, in the displayed frame.
inline PageRect WidgetBox() { return {.page = 1, .x = 200, .y = 120, .width = 100, .height = 30}; }

inline ContractDocument Document(std::string id, std::string name, const std::string& cleaned,
                                 std::vector<DocumentPage> pages) {
  ContractDocument document;
  document.document_id = std::move(id);
  document.name = std::move(name);
  document.sha256 = Sha256Hex(cleaned);
  document.upload_sha256 = Sha256Hex("uploaded " + cleaned);
  document.pages = std::move(pages);
  return document;
}

// Both documents, the tag covered and the widget's field mapped.
inline std::vector<ContractDocument> Documents() {
  ContractDocument tagged =
      Document("doc_tagged", "Master agreement.pdf", TaggedPdf(), {{400, 500}, {500, 400}});
  tagged.covers = {TagBox()};
  ContractDocument form = Document("doc_form", "Order form.pdf", FormPdf(), {{400, 500}});
  form.mapped_form_fields = {"client.sign"};
  return {tagged, form};
}

inline PlacedField Field(std::string id, PlacedFieldType type, std::string participant,
                         int64_t document, PageRect box, std::string value = "") {
  PlacedField field;
  field.field_id = std::move(id);
  field.type = type;
  field.participant_id = std::move(participant);
  field.document_index = document;
  field.box = box;
  field.value = std::move(value);
  return field;
}

// One field of each type, signer p_ana, on all three pages (page 2 turned, page 3 cropped).
inline std::vector<PlacedField> Fields() {
  return {Field("fld_1", PlacedFieldType::kSignature, "p_ana", 0, {1, 200, 300, 160, 60}),
          Field("fld_2", PlacedFieldType::kInitials, "p_ana", 0, {2, 20, 30, 60, 30}),
          Field("fld_3", PlacedFieldType::kDateSigned, "p_ana", 0, {2, 380, 330, 100, 24}),
          Field("fld_4", PlacedFieldType::kName, "p_ana", 1, {1, 30, 40, 150, 20}),
          Field("fld_5", PlacedFieldType::kEmail, "p_ana", 1, {1, 30, 80, 200, 20}),
          Field("fld_6", PlacedFieldType::kText, "", 1, {1, 150, 400, 200, 20}, "Net 30 days")};
}

using pdf_test::PageImage;

// Whether the pixel at x,y touches the box grown by `margin` points on every side.
inline bool Near(const PageRect& box, int x, int y, double margin = 1.5) {
  return x + 1 > box.x - margin && x < box.x + box.width + margin && y + 1 > box.y - margin &&
         y < box.y + box.height + margin;
}

}  // namespace esign::upload_test
