// Files embedded in a PDF (ISO 32000-1, 7.11.4), as an incremental update
// (pdf_incremental_update.h) so the PDF before stays an exact prefix: the files signers attached
// are carried in the sealed contract, under the seal, listed by any reader's attachments panel
// (qpdf --list-attachments). Thread safety: a pure function of its arguments; it may run on any
// thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "domain/result.h"

namespace esign::documents {

struct EmbeddedFile {
  std::string key;          // unique among the files: their order in the name tree
  std::string name;         // the file name shown (UTF-8)
  std::string description;  // shown beside it (UTF-8)
  std::string media_type;   // e.g. "application/pdf"
  std::string bytes;
};

// `pdf` followed by one update adding each file (an embedded file stream and its file
// specification), the catalog's /Names /EmbeddedFiles name tree listing them (the document's own
// embedded files are replaced: the service's PDFs have none) and /AF. `files` empty: `pdf`
// unchanged. kValidationFailed when `pdf` is not a PDF QPDF can read or is encrypted.
[[nodiscard]] Result<std::string> EmbedFiles(std::string_view pdf, std::vector<EmbeddedFile> files);

}  // namespace esign::documents
