#include "documents/certificate_pages.h"

#include <glib.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "documents/pdf_canvas.h"
#include "documents/pdf_layout.h"

namespace esign::documents {
namespace {

constexpr double kFooterSpace = 24.0;
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

// What the layout pass decides and the painting pass draws, in page coordinates (top-left).
struct Op {
  enum class Kind { kText, kRule, kFill };
  Kind kind = Kind::kText;
  PangoLayout* layout = nullptr;  // kText; owned by the Pages that made it
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
  double gray = 0;
};

// A table column: its width in points and its header text (markup).
struct Column {
  double width;
  std::string header;
};

// Lays the certificate out into pages of Ops.
class Pages {
 public:
  Pages(PangoContext* context, const RenderOptions& options)
      : context_(context),
        options_(options),
        left_(options.margin),
        width_(kA4Width - 2 * options.margin),
        bottom_(kA4Height - options.margin - kFooterSpace) {
    NewPage();
  }

  // Markup laid out at `width`; at most `max_lines` lines (0: any), the last one ellipsized.
  PangoLayout* Text(const std::string& markup, double size, double width, int max_lines = 0) {
    GPtr<PangoLayout> layout = NewTextLayout(context_, options_.font_families, size, width);
    // Columns stay left-aligned under a right-to-left name; pango still orders its letters.
    pango_layout_set_auto_dir(layout.get(), FALSE);
    if (max_lines > 0) {
      pango_layout_set_height(layout.get(), -max_lines);
      pango_layout_set_ellipsize(layout.get(), PANGO_ELLIPSIZE_END);
    }
    // A hyphen inserted where an id or a hash breaks would change what it reads.
    const std::string full = "<span insert_hyphens=\"false\" font_features=\"" +
                             std::string(kNoLigatures) + "\">" + markup + "</span>";
    // Every client text is escaped, so markup always parses; should it not, the text shows as is.
    if (pango_parse_markup(full.c_str(), static_cast<int>(full.size()), 0, nullptr, nullptr,
                           nullptr, nullptr) != FALSE) {
      pango_layout_set_markup(layout.get(), full.c_str(), static_cast<int>(full.size()));
    } else {
      pango_layout_set_text(layout.get(), markup.c_str(), static_cast<int>(markup.size()));
    }
    layouts_.push_back(std::move(layout));
    return layouts_.back().get();
  }

  static double HeightOf(PangoLayout* layout) { return LayoutHeight(layout); }

  void Title(const std::string& title, const std::string& subtitle) {
    Place(Text(Bold(title), options_.body_font_size * 1.9, width_), 2);
    Place(Text(Gray(subtitle), options_.body_font_size * 0.85, width_), 6);
    Rule(0.4);
    y_ += 4;
  }

  // A section heading, kept with at least the first lines of what follows.
  void Heading(const std::string& text) {
    PangoLayout* layout = Text(Bold(MarkupEscape(text)), options_.body_font_size * 1.15, width_);
    if (y_ > top() && HeightOf(layout) + 60 > Remaining()) NewPage();
    if (y_ > top()) y_ += 10;
    Place(layout, 2);
    Rule(0.6);
    y_ += 3;
  }

  // Label and value rows, the labels in gray; a row never splits.
  void KeyValues(const std::vector<std::pair<std::string, std::string>>& rows) {
    const double size = options_.body_font_size * 0.85;
    for (const auto& [label, value] : rows) {
      PangoLayout* key = Text(Gray(MarkupEscape(label)), size, kLabelWidth - kCellInset);
      PangoLayout* text = Text(value, size, width_ - kLabelWidth, 4);
      const double height = std::max(HeightOf(key), HeightOf(text)) + 2 * 1.5;
      if (height > Remaining()) NewPage();
      Add({.kind = Op::Kind::kText, .layout = key, .x = left_, .y = y_ + 1.5});
      Add({.kind = Op::Kind::kText, .layout = text, .x = left_ + kLabelWidth, .y = y_ + 1.5});
      y_ += height;
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
    const auto height_of = [](const std::vector<PangoLayout*>& row) {
      return TallestLayout(row) + 2 * kCellInset;
    };
    const auto place = [&](const std::vector<PangoLayout*>& row, double height, bool header) {
      if (header) {
        Add({.kind = Op::Kind::kFill,
             .x = left_,
             .y = y_,
             .width = width_,
             .height = height,
             .gray = 0.9});
      }
      double x = left_;
      for (size_t i = 0; i < row.size(); ++i) {
        Add({.kind = Op::Kind::kText, .layout = row[i], .x = x + kCellInset, .y = y_ + kCellInset});
        x += columns[i].width;
      }
      y_ += height;
      Add({.kind = Op::Kind::kRule,
           .x = left_,
           .y = y_,
           .width = width_,
           .gray = header ? 0.45 : 0.8});
    };
    std::vector<std::string> header_cells;
    header_cells.reserve(columns.size());
    for (const auto& column : columns) header_cells.push_back(column.header);
    const auto header = make_row(header_cells, true);
    const double header_height = height_of(header);
    bool header_placed = false;
    for (const auto& cells : rows) {
      const auto row = make_row(cells, false);
      const double height = height_of(row);
      if (!header_placed || height > Remaining()) {
        if (header_height + height > Remaining()) NewPage();
        place(header, header_height, true);
        header_placed = true;
      }
      place(row, height, false);
    }
    if (!header_placed) place(header, header_height, true);
  }

  // A paragraph of markup, flowing line by line onto the next page when it must.
  void Paragraph(const std::string& markup, double size, double indent = 0) {
    PangoLayout* layout = Text(markup, size, width_ - indent);
    if (HeightOf(layout) > Remaining()) NewPage();
    Add({.kind = Op::Kind::kText, .layout = layout, .x = left_ + indent, .y = y_});
    y_ += HeightOf(layout) + size * 0.5;
  }

  void Space(double points) { y_ = std::min(y_ + points, bottom_); }
  std::vector<std::vector<Op>>& pages() { return pages_; }
  double left() const { return left_; }
  double width() const { return width_; }

 private:
  double top() const { return options_.margin; }
  double Remaining() const { return bottom_ - y_; }
  void NewPage() {
    pages_.emplace_back();
    y_ = top();
  }
  void Add(Op op) { pages_.back().push_back(op); }
  void Place(PangoLayout* layout, double space_after) {
    if (HeightOf(layout) > Remaining()) NewPage();
    Add({.kind = Op::Kind::kText, .layout = layout, .x = left_, .y = y_});
    y_ += HeightOf(layout) + space_after;
  }
  void Rule(double gray) {
    Add({.kind = Op::Kind::kRule, .x = left_, .y = y_, .width = width_, .gray = gray});
  }

  PangoContext* context_;
  const RenderOptions& options_;
  double left_;
  double width_;
  double bottom_;
  double y_ = 0;
  std::vector<GPtr<PangoLayout>> layouts_;
  std::vector<std::vector<Op>> pages_;
};

void Paint(cairo_t* cr, const Op& op) {
  switch (op.kind) {
    case Op::Kind::kText:
      PaintLayout(cr, op.x, op.y, op.layout);
      break;
    case Op::Kind::kRule:
      PaintRule(cr, op.x, op.y, op.width, op.gray, 0.5);
      break;
    case Op::Kind::kFill:
      PaintRect(cr, op.x, op.y, op.width, op.height, op.gray, true);
      break;
  }
}

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

void ContractSection(Pages& pages, const CompletionCertificate& c) {
  pages.Heading("Contract");
  pages.KeyValues(
      {{"Title", Bold(MarkupEscape(Or(c.title)))},
       {"Contract id", Mono(MarkupEscape(c.contract_id))},
       {"Organization", MarkupEscape(Or(c.organization_id))},
       c.documents.empty()
           ? std::pair<std::string, std::string>{"Template", MarkupEscape(Or(c.template_name))}
           : std::pair<std::string, std::string>{"Documents",
                                                 std::to_string(c.documents.size()) + " uploaded"},
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
  pages.Table({{w * 0.08, "Position"},
               {w * 0.12, "Time"},
               {w * 0.27, "Event"},
               {w * 0.16, "Actor"},
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
                                   .author = certificate.organization_id,
                                   .subject = "Contract " + certificate.contract_id});
  if (!canvas) return std::unexpected(std::move(canvas.error()));
  Pages pages((*canvas)->context(), options);
  pages.Title("Certificate of completion", "Contract " + MarkupEscape(certificate.contract_id) +
                                               "  \u00b7  sealed by " + "contractd  \u00b7  " +
                                               Time(certificate.completed_at));
  ContractSection(pages, certificate);
  DocumentsSection(pages, certificate);
  ParticipantsSection(pages, certificate);
  EventsSection(pages, certificate);
  LedgerSection(pages, certificate);
  VerifySection(pages, certificate, options.body_font_size * 0.85);

  cairo_t* cr = (*canvas)->cr();
  auto& all = pages.pages();
  for (size_t i = 0; i < all.size(); ++i) {
    for (const auto& op : all[i]) Paint(cr, op);
    PangoLayout* footer = pages.Text(
        Gray("Certificate of completion  \u00b7  " + MarkupEscape(certificate.contract_id) +
             "  \u00b7  Page " + std::to_string(i + 1) + " of " + std::to_string(all.size())),
        options.body_font_size * 0.8, pages.width());
    pango_layout_set_alignment(footer, PANGO_ALIGN_CENTER);
    Paint(cr, {.kind = Op::Kind::kText,
               .layout = footer,
               .x = pages.left(),
               .y = kA4Height - options.margin - Pages::HeightOf(footer)});
    cairo_show_page(cr);
  }
  return (*canvas)->Finish();
}

}  // namespace esign::documents
