// Pages of one PDF added at the end of another, as an incremental update
// (pdf_incremental_update.h): the first PDF stays an exact prefix of the result, so a hash of it
// can still be checked against the first bytes of the result. Used to add the completion
// certificate (certificate_pages.h) to the signed contract pages before the service's seal. Thread
// safety: a pure function of its arguments; it may run on any thread.
#pragma once

#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::documents {

// `pdf` followed by one update that copies every page of `pages` (with everything they use:
// content, fonts, images), renumbered from the trailer /Size of `pdf` on, and a new version of
// the root of `pdf`'s page tree listing them after its own pages. kValidationFailed when either
// input is not a PDF QPDF can read, is encrypted, or has no page tree; `pages` with no page gives
// `pdf` unchanged.
[[nodiscard]] Result<std::string> AppendPdfPages(std::string_view pdf, std::string_view pages);

}  // namespace esign::documents
