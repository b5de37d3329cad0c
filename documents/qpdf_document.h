// Building PDFs with QPDF's C API (qpdf_reader.h), for the code that rebuilds a document: the
// composer of uploads and the field stamper. The C API keeps QPDF's exceptions inside the library;
// failures come back as flags (QpdfReader::Failed). Writing is deterministic: the same objects
// give the same bytes (an /ID derived from the content, no clock), with a classic
// cross-reference table (no object streams, so incremental updates such as the certificate pages
// and the seal can follow) and every stream's bytes copied as read, never decoded and compressed
// again. Internal to documents/.
// Thread safety: a QpdfReader is used by one thread at a time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "documents/qpdf_reader.h"
#include "domain/result.h"

namespace esign::documents {

// The document as written; kInternal when QPDF cannot write it.
Result<std::string> WritePdf(QpdfReader& pdf);

// A new stream holding `data` unfiltered.
qpdf_oh NewStream(qpdf_data q, std::string_view data);

// Adds `stream` to the page's content streams, first or last. The page gets a new /Contents
// array; the streams already there are referenced, not copied or changed.
void AddPageContent(qpdf_data q, qpdf_oh page, qpdf_oh stream, bool first);

// A direct copy of a dictionary's entries (an empty dictionary for anything else): what a page
// changes instead of a dictionary other pages may share.
qpdf_oh ShallowCopy(qpdf_data q, qpdf_oh dictionary);

// The dictionary's keys, read before anything else is done with the session (the C API has one
// key iterator per session).
std::vector<std::string> KeysOf(qpdf_data q, qpdf_oh dictionary);

// An object of `from` as an object of `to`: indirect objects copied with everything they reach
// (QPDF's foreign copy), direct dictionaries and arrays rebuilt around them, other values parsed
// again.
qpdf_oh CopyForeign(const QpdfReader& to, const QpdfReader& from, qpdf_oh object);

}  // namespace esign::documents
