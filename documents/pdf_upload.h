// An uploaded PDF checked before anything of it is stored (DESIGN section 20): parsed with QPDF
// under limits, refused when it is not a PDF, damaged beyond repair, encrypted or too large or
// complex; otherwise cleaned of active content (JavaScript, launch and URI actions, embedded files,
// XFA) and rewritten, with what it holds: page sizes as displayed, text tags with their boxes
// (text_tags.h) and AcroForm fields.
// Thread safety: InspectUpload is a pure function of its input; it may run on several threads.
// It is CPU-bound: callers keep it off the I/O threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "domain/placed_fields.h"
#include "domain/result.h"
#include "domain/uploaded_document.h"

namespace esign::documents {

struct UploadLimits {
  uint64_t max_bytes = 25ull << 20;  // kDocumentTooLarge above
  int64_t max_pages = 500;
  int64_t max_objects = 100'000;
  int64_t max_depth = 64;  // nesting of arrays and dictionaries
  // Decoded bytes of all content streams together (a deflate bomb stops here); also the most any
  // one Flate stream may inflate to.
  uint64_t max_decoded_bytes = 256ull << 20;
  // Inflated bytes of all Flate streams together, counted before QPDF parses anything.
  uint64_t max_inflated_bytes = 1ull << 30;
};

// A text tag found in the document (DESIGN section 20), its box in the page's displayed frame;
// whether its type is a known field type is the contract's to check. An AcroForm field, with its
// first widget's box. As document.uploaded records them (domain/uploaded_document.h).
using TextTag = DocumentTextTag;
using FormField = DocumentFormField;

struct InspectedUpload {
  std::string cleaned_pdf;  // what is stored, shown and sealed
  std::vector<DocumentPage> pages;
  // What was removed, one entry per kind, sorted: "javascript", "launch_action", "uri_action",
  // "form_submission", "remote_goto", "multimedia", "embedded_files", "xfa", "open_action",
  // "additional_actions" (docs/documents.md says what each covers).
  std::vector<std::string> removed;
  // What the uploader should know: "signatures_invalidated" (the PDF holds signatures, which the
  // rewritten copy breaks), "repaired" (QPDF repaired damage while reading it).
  std::vector<std::string> warnings;
  std::vector<TextTag> text_tags;
  std::vector<FormField> form_fields;
};

// kDocumentTooLarge over limits.max_bytes; kDocumentInvalid for bytes that are not a PDF or that
// QPDF cannot repair; kDocumentEncrypted for an encrypted PDF; kDocumentLimitExceeded over the
// page, object, depth or decoded-bytes limits. Each error's message says what was wrong.
Result<InspectedUpload> InspectUpload(std::string_view bytes, const UploadLimits& limits = {});

}  // namespace esign::documents
