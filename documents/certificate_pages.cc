#include "documents/certificate_pages.h"

#include <glib.h>
#include <pango/pango.h>

#include <algorithm>
#include <vector>

#include "documents/page_layout.h"
#include "documents/pdf_canvas.h"
#include "documents/pdf_layout.h"

namespace esign::documents {
namespace {

constexpr double kCellInset = 3.0;
constexpr double kTableSize = 7.5;  // points, every table cell
constexpr double kLabelWidth = 118.0;
constexpr char kMono[] = "DejaVu Sans Mono, Noto Sans Mono, monospace";
constexpr char kGray[] = "#555555";

// Bold, gray and monospace spans around text that is already escaped.
std::string Bold(const std::string& markup) { return "<b>" + markup + "</b>"; }
std::string Gray(const std::string& markup) {
  return "<span foreground=\"" + std::string(kGray) + "\">" + markup + "</span>";
}
std::string Mono(const std::string& markup) {
  return "<span font_family=\"" + std::string(kMono) + "\">" + markup + "</span>";
}
std::string Or(const std::string& text, std::string_view fallback = "\u2014") {
  return text.empty() ? std::string(fallback) : text;
}

// A table column: its width in points and its header text (markup).
struct Column {
  double width;
  std::string header;
};

// What a certificate lays out, in its sizes and spacing; where it goes is the PageLayout's.
class Pages {
 public:
  Pages(PageLayout& layout, const RenderOptions& options) : layout_(layout), options_(options) {}

  // Markup laid out at `width`; at most `max_lines` lines (0: any), the last one ellipsized.
  PangoLayout* Text(const std::string& markup, double size, double width, int max_lines = 0) {
    return layout_.Markup(markup, {.size = size, .width = width}, max_lines);
  }

  void Title(const std::string& title, const std::string& subtitle) {
    Place(Text(Bold(title), options_.body_font_size * 1.9, width()), 2);
    Place(Text(Gray(subtitle), options_.body_font_size * 0.85, width()), 6);
    layout_.Rule(0.4, kRuleWidth);
    layout_.Advance(4);
  }

  // A section heading, kept with at least the first lines of what follows.
  void Heading(const std::string& text) {
    PangoLayout* heading = Text(Bold(MarkupEscape(text)), options_.body_font_size * 1.15, width());
    layout_.KeepWithNext(PageLayout::HeightOf(heading) + 60);
    if (!layout_.AtTop()) layout_.Advance(10);
    Place(heading, 2);
    layout_.Rule(0.6, kRuleWidth);
    layout_.Advance(3);
  }

  // Label and value rows, the labels in gray; a row never splits.
  void KeyValues(const std::vector<std::pair<std::string, std::string>>& rows) {
    const double size = options_.body_font_size * 0.85;
    for (const auto& [label, value] : rows) {
      PangoLayout* key = Text(Gray(MarkupEscape(label)), size, kLabelWidth - kCellInset);
      PangoLayout* text = Text(value, size, width() - kLabelWidth, 4);
      const double height =
          std::max(PageLayout::HeightOf(key), PageLayout::HeightOf(text)) + 2 * 1.5;
      layout_.BreakUnlessFits(height);
      const double y = layout_.y() + 1.5;
      layout_.Add({.kind = PageOp::Kind::kLayout, .layout = key, .x = layout_.left(), .y = y});
      layout_.Add({.kind = PageOp::Kind::kLayout,
                   .layout = text,
                   .x = layout_.left() + kLabelWidth,
                   .y = y});
      layout_.Advance(height);
    }
  }

  // A table whose header row opens it and every page it continues on. Each cell is markup;
  // cells beyond `max_lines` lines are ellipsized so that every row fits a page.
  void Table(const std::vector<Column>& columns, const std::vector<std::vector<std::string>>& rows,
             int max_lines) {
    const auto make_row = [&](const std::vector<std::string>& cells, bool header) {
      std::vector<PangoLayout*> row;
      for (size_t i = 0; i < columns.size(); ++i) {
        const std::string& cell = i < cells.size() ? cells[i] : std::string();
        row.push_back(Text(header ? Bold(cell) : cell, kTableSize,
                           columns[i].width - 2 * kCellInset, header ? 2 : max_lines));
      }
      return row;
    };
    std::vector<double> widths;
    std::vector<std::string> header_cells;
    for (const auto& column : columns) {
      widths.push_back(column.width);
      header_cells.push_back(column.header);
    }
    const auto header = make_row(header_cells, true);
    std::vector<std::vector<PangoLayout*>> cells;
    cells.reserve(rows.size());
    for (const auto& row : rows) cells.push_back(make_row(row, false));
    layout_.Table(ColumnsOfWidths(widths), header, cells,
                  {.lines = TableStyle::Lines::kRowRules,
                   .padding = kCellInset,
                   .header_line_gray = 0.45,
                   .row_line_gray = 0.8,
                   .line_width = kRuleWidth,
                   .keep_header_with_first_row = true});
  }

  // A paragraph of markup, moved whole to the next page when it does not fit.
  void Paragraph(const std::string& markup, double size, double indent = 0) {
    PangoLayout* paragraph = Text(markup, size, width() - indent);
    layout_.BreakUnlessFits(PageLayout::HeightOf(paragraph));
    layout_.Place(paragraph, size * 0.5, indent);
  }

  void Space(double points) { layout_.Space(points); }
  double width() const { return layout_.width(); }

 private:
  static constexpr double kRuleWidth = 0.5;

  void Place(PangoLayout* layout, double space_after) {
    layout_.BreakUnlessFits(PageLayout::HeightOf(layout));
    layout_.Place(layout, space_after);
  }

  PageLayout& layout_;
  const RenderOptions& options_;
};

std::string Time(const std::string& rfc3339) { return MarkupEscape(Or(CertificateTime(rfc3339))); }

// The contract's positions in the log, runs of consecutive ones joined: "3, 7-9, 12".
std::string PositionRuns(const std::vector<CertificateEvent>& events) {
  std::vector<uint64_t> positions;
  for (const auto& event : events) {
    if (event.position) positions.push_back(*event.position);
  }
  std::string out;
  for (size_t i = 0; i < positions.size();) {
    size_t j = i;
    while (j + 1 < positions.size() && positions[j + 1] == positions[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(positions[i]) +
           (j > i ? "\u2013" + std::to_string(positions[j]) : "");
    i = j + 1;
  }
  return out;
}

// The organization's name, its id in small print under it for an auditor; the id alone when the
// contract recorded no name.
std::string OrganizationMarkup(const CompletionCertificate& c) {
  if (c.organization_name.empty()) return MarkupEscape(Or(c.organization_id));
  return MarkupEscape(c.organization_name) + "\n" +
         Gray("<span size=\"smaller\">" + Mono(MarkupEscape(c.organization_id)) + "</span>");
}

void ContractSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Contract");
  pages.KeyValues(
      {{"Title", Bold(MarkupEscape(Or(c.title)))},
       {"Contract id", Mono(MarkupEscape(c.contract_id))},
       {"Organization", OrganizationMarkup(c)},
       c.documents.empty()
           ? std::pair<std::string, std::string>{"Template", MarkupEscape(Or(c.template_name))}
           : std::pair<std::string, std::string>{"Documents",
                                                 std::to_string(c.documents.size()) + " uploaded" +
                                                     (c.template_name.empty()
                                                          ? std::string()
                                                          : ", from template " +
                                                                MarkupEscape(c.template_name))},
       {"Sent", Time(c.sent_at)},
       {"Completed", Time(c.completed_at)}});
}

void DocumentsSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Documents (SHA-256)");
  pages.KeyValues(
      {{"Unsigned document", Mono(MarkupEscape(Or(c.unsigned_sha256))) + "\n" +
                                 Gray("The PDF frozen when the contract was sent; every signer "
                                      "was shown exactly these bytes.")},
       {"Signed document", Mono(MarkupEscape(Or(c.signed_sha256))) + "\n" +
                               Gray("The contract pages with every signature: the first " +
                                    std::to_string(c.signed_size) +
                                    " bytes of this file, before this certificate and the "
                                    "service's seal.")}});
  // A contract from uploads: each document with the pages it occupies in this file.
  std::vector<std::pair<std::string, std::string>> documents;
  for (size_t i = 0; i < c.documents.size(); ++i) {
    const CertificateDocument& d = c.documents[i];
    const std::string pages =
        d.first_page == d.last_page
            ? "page " + std::to_string(d.first_page)
            : "pages " + std::to_string(d.first_page) + "\u2013" + std::to_string(d.last_page);
    documents.emplace_back("Document " + std::to_string(i + 1) + "\nUploaded\nCleaned copy",
                           Bold(MarkupEscape(Or(d.name), 80)) + "  " + Gray(pages) + "\n" +
                               Mono(MarkupEscape(Or(d.upload_sha256))) + "\n" +
                               Mono(MarkupEscape(Or(d.cleaned_sha256))));
  }
  if (!documents.empty()) pages.KeyValues(documents);
}

void ParticipantsSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Participants (" + std::to_string(c.participants.size()) + ")");
  const double w = pages.width();
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : c.participants) {
    std::string who = Bold(MarkupEscape(Or(p.name))) + "\n" + MarkupEscape(Or(p.contact));
    if (!p.role.empty()) who += "\n" + Gray("Role: " + MarkupEscape(p.role));
    std::string authentication = MarkupEscape(Or(p.required_authentication));
    if (!p.signing_method.empty()) {
      authentication += "\n" + Gray("Signed with: " + MarkupEscape(p.signing_method));
    }
    std::string origin = p.ip.empty() && p.user_agent.empty()
                             ? std::string("\u2014")
                             : MarkupEscape(Or(p.ip)) + "\n" + Gray(MarkupEscape(p.user_agent));
    rows.push_back(
        {who, MarkupEscape(p.action) + "\n" + Bold(MarkupEscape(p.outcome)) + "\n" + Time(p.when),
         authentication, origin});
  }
  pages.Table({{w * 0.30, "Participant"},
               {w * 0.19, "Action"},
               {w * 0.24, "Authentication"},
               {w * 0.27, "IP address and user agent"}},
              rows, 6);
}

// What signers filled in; none for a contract without such fields (the section is left out).
void EntriesSection(Pages& pages, const CompletionCertificate& c) {
  if (c.entries.empty()) return;
  pages.Heading("Values entered (" + std::to_string(c.entries.size()) + ")");
  const double w = pages.width();
  std::vector<std::vector<std::string>> rows;
  rows.reserve(c.entries.size());
  for (const auto& entry : c.entries) {
    rows.push_back({MarkupEscape(entry.field) + "\n" + Gray("page " + std::to_string(entry.page)),
                    MarkupEscape(entry.signer), MarkupEscape(entry.value)});
  }
  pages.Table({{w * 0.35, "Field"}, {w * 0.25, "Signer"}, {w * 0.40, "Value"}}, rows, 6);
}

void EventsSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Events (" + std::to_string(c.events.size()) + ")");
  const double w = pages.width();
  std::vector<std::vector<std::string>> rows;
  for (const auto& event : c.events) {
    const std::string position = event.position
                                     ? Mono(std::to_string(*event.position)) + "\n" +
                                           Gray("v" + std::to_string(event.stream_version))
                                     : Gray("pending");
    const std::string time = CertificateTime(event.time);
    rows.push_back(
        {position, MarkupEscape(time),
         MarkupEscape(event.description) + "\n" +
             Gray("<span size=\"smaller\">" + Mono(MarkupEscape(event.type)) + "</span>"),
         MarkupEscape(Or(event.actor)), MarkupEscape(Or(event.authentication)),
         event.ip.empty() && event.user_agent.empty()
             ? std::string("\u2014")
             : MarkupEscape(Or(event.ip)) + "\n" + Gray(MarkupEscape(event.user_agent))});
  }
  // The actor's column is wide enough for a client id on a line of its own.
  pages.Table({{w * 0.07, "Position"},
               {w * 0.11, "Time"},
               {w * 0.24, "Event"},
               {w * 0.21, "Actor"},
               {w * 0.14, "Authentication"},
               {w * 0.23, "IP address and user agent"}},
              rows, 4);
  pages.Space(3);
  pages.Paragraph(Gray("Position: the event's place in the service's log (v: its version in the "
                       "contract's stream). Pending: decided with the completion and recorded "
                       "together with it, right after this seal."),
                  kTableSize);
}

void LedgerSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Ledger");
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Stream", Mono(MarkupEscape(c.stream_id))},
      {"Positions", Mono(MarkupEscape(Or(PositionRuns(c.events))))}};
  if (c.tree_head) {
    rows.emplace_back("Signed tree head", "size " + std::to_string(c.tree_head->size) +
                                              ", signed " + Time(c.tree_head->time));
    rows.emplace_back("Root", Mono(MarkupEscape(c.tree_head->root_hex)));
    rows.emplace_back("Ledger key (SHA-256)", Mono(MarkupEscape(Or(c.tree_head->key_fingerprint))));
  } else {
    rows.emplace_back("Signed tree head", "\u2014");
  }
  pages.KeyValues(rows);
}

void VerifySection(Pages& pages, const CompletionCertificate& c, double size) {
  pages.Heading("How to verify offline");
  const std::string id = MarkupEscape(c.contract_id);
  const auto step = [&](const std::string& text, const std::string& command) {
    pages.Paragraph(text, size);
    if (!command.empty()) pages.Paragraph(Mono(command), size * 0.9, 12);
  };
  step(
      "1. Download the evidence bundle with an API client that may read the contract, and save "
      "the answer as bundle.json:",
      "GET /api/v1/contracts/" + id + "/evidence/bundle");
  step(
      "2. Check every event, its inclusion in the ledger and the signed tree head with the "
      "service's ledger public key (ledger.pem, obtained from the service's operator); exit "
      "status 0 means every check passed:",
      "contract-ledger verify-bundle bundle.json --public-key ledger.pem");
  step(
      "3. Check the service's seal over this whole file; it must report the signature valid and "
      "\u201cTotal document signed\u201d:",
      "pdfsig signed.pdf");
  step(
      "4. Compare the hashes above with the bundle's documents and with this file: the signed "
      "document is its first " +
          std::to_string(c.signed_size) + " bytes.",
      "head -c " + std::to_string(c.signed_size) + " signed.pdf | sha256sum");
  step(
      "5. The tree head's size and root must match the bundle's signed tree head, and the ledger "
      "key's fingerprint the one above:",
      "openssl pkey -pubin -in ledger.pem -outform DER | sha256sum");
}

}  // namespace

std::string MarkupEscape(std::string_view text, size_t max_characters) {
  gchar* valid = g_utf8_make_valid(text.data(), static_cast<gssize>(text.size()));
  std::string clean(valid);
  if (g_utf8_strlen(valid, -1) > static_cast<glong>(max_characters)) {
    clean.resize(g_utf8_offset_to_pointer(valid, static_cast<glong>(max_characters)) - valid);
    clean += "\u2026";
  }
  g_free(valid);
  for (char& c : clean) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\n') || byte == 0x7F) c = ' ';
  }
  gchar* escaped = g_markup_escape_text(clean.c_str(), static_cast<gssize>(clean.size()));
  std::string out(escaped);
  g_free(escaped);
  return out;
}

Result<std::string> RenderCertificatePdf(const CompletionCertificate& certificate,
                                         const RenderOptions& options) {
  auto canvas = PdfCanvas::Create({.date = PdfMetadataDate(certificate.completed_at),
                                   .title = "Certificate of completion",
                                   .author = certificate.organization_name.empty()
                                                 ? certificate.organization_id
                                                 : certificate.organization_name,
                                   .subject = "Contract " + certificate.contract_id});
  if (!canvas) return std::unexpected(std::move(canvas.error()));
  PageLayout layout(**canvas, {.margin = options.margin}, {.families = options.font_families});
  Pages pages(layout, options);
  pages.Title("Certificate of completion", "Contract " + MarkupEscape(certificate.contract_id) +
                                               "  \u00b7  sealed by " + "contractd  \u00b7  " +
                                               Time(certificate.completed_at));
  ContractSection(pages, certificate);
  DocumentsSection(pages, certificate);
  ParticipantsSection(pages, certificate);
  EntriesSection(pages, certificate);
  EventsSection(pages, certificate);
  LedgerSection(pages, certificate);
  VerifySection(pages, certificate, options.body_font_size * 0.85);
  return layout.Finish([&](size_t page, size_t total) {
    return layout.Markup(
        Gray("Certificate of completion  \u00b7  " + MarkupEscape(certificate.contract_id) +
             "  \u00b7  Page " + std::to_string(page) + " of " + std::to_string(total)),
        {.size = options.body_font_size * 0.8,
         .width = layout.width(),
         .alignment = PANGO_ALIGN_CENTER});
  });
}

}  // namespace esign::documents
