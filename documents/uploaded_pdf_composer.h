// The PDF of a contract made from uploaded documents (DESIGN section 20): the cleaned uploads'
// pages in order in one PDF, what every signer is shown and what is frozen at send. Each page
// keeps its own content streams byte for byte; around them it gets a first stream "q" and a
// last one that restores the graphics state and paints the page's text tag boxes white, so the
// tags do not show and whatever the page's content leaves set (a transformation, a colour) never
// reaches what is drawn after it (the covers now, the stamped fields at signing). The widgets of
// the AcroForm fields mapped to placed fields are dropped; other annotations stay. The sources'
// document-level parts (AcroForm, outlines, names) are not carried over.
//
// Deterministic: the same documents give the same bytes (qpdf_document.h).
// Thread safety: a pure function of its arguments; it may run on several threads at once. It is
// CPU-bound (parsing and writing the documents): keep it off the I/O threads.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "domain/placed_fields.h"
#include "domain/result.h"

namespace esign::documents {

struct UploadedPdf {
  const ContractDocument* document = nullptr;  // its pages, covers and mapped form fields
  std::string_view cleaned_pdf;                // the blob document->sha256 names
};

// kValidationFailed when there is no document, a PDF QPDF cannot read, a PDF whose page count is
// not the one its ContractDocument records, or a cover on a page it does not have.
Result<std::string> ComposeUploadedPdf(std::span<const UploadedPdf> documents);

}  // namespace esign::documents
