// The pages of a completion certificate (completion_certificate.h) as a PDF of their own, which
// the sealer appends to the signed contract pages before the service's seal (contract_sealer.h).
// A4, the fonts of RenderOptions; sections in order: the contract, the documents' hashes, the
// participants, the events, the ledger, how to verify offline. Tables repeat their header row on
// every page they continue on, and a row never splits.
//
// Every text from a client (names, titles, e-mail addresses, user agents) is escaped before pango
// reads markup, stripped of control characters and invalid UTF-8, and wrapped in its column; a
// text longer than a few lines is cut with an ellipsis, so no row outgrows a page, and a text
// longer than 300 characters is cut before layout.
//
// Deterministic: the same certificate and options give the same bytes.
// Thread safety: may run on several threads at once (each thread uses its own pango font map);
// CPU-bound, like the contract's rendering.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "documents/completion_certificate.h"
#include "documents/pdf_renderer.h"
#include "domain/result.h"

namespace esign::documents {

// The PDF bytes, or kInternal when cairo fails to produce them.
Result<std::string> RenderCertificatePdf(const CompletionCertificate& certificate,
                                         const RenderOptions& options = {});

// `text` made safe to place inside pango markup: invalid UTF-8 becomes U+FFFD, text beyond
// `max_characters` is cut and ends in an ellipsis (so a huge text costs no layout time), control
// characters (but line breaks) become spaces, and & < > ' " are escaped.
std::string MarkupEscape(std::string_view text, size_t max_characters = 300);

}  // namespace esign::documents
