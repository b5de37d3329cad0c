// Removing active content from an uploaded PDF (DESIGN section 20), for InspectUpload
// (pdf_upload.h): JavaScript, launch, URI and other actions that reach outside the document,
// additional actions (/AA), embedded files and file attachment annotations, multimedia
// annotations and XFA forms. Everything else is kept. Internal to documents/ (includes QPDF).
// Thread safety: works on one QPDF object, which must not be shared while it runs.
#pragma once

#include "documents/qpdf_cxx.h"

#include <cstdint>
#include <set>
#include <string>

#include "domain/result.h"

namespace esign::documents {

// Walks every object of `pdf` once; refuses (kDocumentLimitExceeded) an object whose arrays and
// dictionaries nest deeper than `max_depth`, before anything else looks into it. Otherwise removes
// the active content in place and returns what was removed, one entry per kind (pdf_upload.h).
Result<std::set<std::string>> RemoveActiveContent(QPDF& pdf, int64_t max_depth);

}  // namespace esign::documents
