// The unsigned PDF of a contract: the template version's body laid out on A4 pages with the
// contract's data (DESIGN section 12). Headings, paragraphs with {{fieldKey}} placeholders
// substituted ("________" for a value not given), tables from tableData whose header row repeats
// on every page the table spans, a title block (contract title and id), "Page N of M" footers and
// a labelled box at every signature placement: the prepared roles' once the contract is prepared,
// else the template roles'; and an unlabelled box at each of the contract's fields (its template
// roles' `fields`), where the seal stamps their values (field_stamper.h). Text is real, selectable
// text shaped by pango (Unicode, CJK and right-to-left scripts) with the fonts of RenderOptions,
// found through fontconfig.
//
// RenderSignedContractPdf lays out the same document (same pages, same placements) and draws
// each signer's signature (signature_appearance.h) in their prepared placement boxes instead of
// the labelled empty box: the page content of the signed PDF (contract_sealer.h).
//
// Deterministic: the same template, version, state and options give the same bytes; the PDF's
// dates are the contract's created_at, never the clock.
//
// Thread safety: RenderContractPdf may run on several threads at once (each thread uses its own
// pango font map). It is CPU-bound and may take tens of milliseconds: callers keep it off the
// I/O threads.
#pragma once

#include <string>
#include <vector>

#include "documents/signature_appearance.h"

#include "domain/contract.h"
#include "domain/contract_state.h"
#include "domain/result.h"
#include "domain/template.h"

namespace esign {

struct RenderOptions {
  // Font families in order of preference; fontconfig falls back along the list per character.
  // Default: "Noto Sans, Noto Sans CJK SC, DejaVu Sans".
  std::string font_families = "Noto Sans, Noto Sans CJK SC, DejaVu Sans";
  // Body text size in points. Default: 10.5.
  double body_font_size = 10.5;
  // Page margin on every side, in points. Default: 56.7 (2 cm).
  double margin = 56.7;
  // Font families of typed signatures, drawn italic. The caption under a signature uses
  // font_families. Default: "Noto Serif, Noto Sans CJK SC, DejaVu Serif".
  std::string signature_font_families = "Noto Serif, Noto Sans CJK SC, DejaVu Serif";
  // Standard ligatures ('fi', 'ff') in the contract's text. Off since 2026-11-26: each font that
  // shows one is embedded twice (pdf_canvas.h, kNoLigatures). On lays out a contract frozen before
  // then exactly as it was frozen (its line breaks differ), which its seal must do.
  bool ligatures = false;
  // What writes the unsigned PDF: our own writer (documents/pdf_writer.h; since 2026-11-29), or
  // cairo, which froze every contract sent before and which a seal must use to reproduce those
  // bytes. The writer hands a document to cairo when its text needs a face it cannot embed (a
  // CFF face: Noto Sans CJK). A signed render is always cairo's: only cairo draws signatures.
  enum class Writer { kOwn, kCairo };
  Writer writer = Writer::kOwn;
};

// The PDF bytes, or kInternal when cairo fails to produce them.
Result<std::string> RenderContractPdf(const Template& tmpl, const TemplateVersion& version,
                                      const ContractState& state,
                                      const RenderOptions& options = {});

// The unsigned PDF as sending freezes it: RenderContractPdf of a prepared contract, its signature
// boxes kept with the text (signature_keeping.h), and where it drew the boxes of each signer
// whose boxes moved, which contract.prepared records: RenderContractPdf of the state that records
// them gives the same bytes.
struct SentRendering {
  std::string pdf;
  PlacementsByParticipant signature_placements;
};
Result<SentRendering> RenderContractPdfForSend(const Template& tmpl, const TemplateVersion& version,
                                               const ContractState& prepared,
                                               const RenderOptions& options = {});

// The PDF with every appearance drawn in each placement box of its participant's prepared
// roles; a prepared role without an appearance keeps its labelled empty box. kValidationFailed
// for an appearance whose participant has no prepared role, two appearances of one participant,
// an image that is not a PNG cairo can read (or larger than 4096 pixels on a side) or an
// appearance with nothing to draw; else as RenderContractPdf.
Result<std::string> RenderSignedContractPdf(
    const Template& tmpl, const TemplateVersion& version, const ContractState& state,
    const std::vector<documents::SignatureAppearance>& appearances,
    const RenderOptions& options = {});

}  // namespace esign
