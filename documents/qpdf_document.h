// Reading and writing whole PDFs with QPDF's C++ API, for the code that rebuilds a document
// (the composer of uploads and the field stamper). Reading keeps QPDF quiet (warnings are
// repairs, not failures); writing is deterministic: the same objects give the same bytes (an
// /ID derived from the content, no clock), with a classic cross-reference table (no object
// streams, so incremental updates such as the certificate pages and the seal can follow) and
// every stream's bytes copied as read, never decoded and compressed again.
// QPDF reports failures by exceptions: callers catch std::exception at their edge.
// Internal to documents/. Thread safety: a QPDF object is used by one thread at a time.
#pragma once

#include <qpdf/QPDF.hh>

#include <memory>
#include <string>
#include <string_view>

namespace esign::documents {

// `bytes` must outlive the result (QPDF reads them in place). Throws when QPDF cannot read them.
std::unique_ptr<QPDF> ReadPdf(std::string_view bytes, const std::string& description);

// Throws when QPDF cannot write the document.
std::string WritePdf(QPDF& pdf);

}  // namespace esign::documents
