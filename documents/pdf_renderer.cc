#include "documents/pdf_renderer.h"

#include <cairo.h>
#include <pango/pangocairo.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "documents/cairo_handles.h"
#include "documents/pdf_canvas.h"
#include "documents/pdf_layout.h"
#include "documents/signature_drawing.h"

namespace esign {
namespace {

constexpr double kPageWidth = documents::kA4Width;
constexpr double kPageHeight = documents::kA4Height;
constexpr double kFooterHeight = 24.0;
constexpr double kCellPadding = 4.0;

using documents::GPtr;
using documents::PreparedSignature;

// What the layout pass decides and the drawing pass paints, in page coordinates (top-left).
struct DrawOp {
  enum class Kind { kLine, kLayout, kStrokeRect, kFillRect, kRule, kSignature };
  Kind kind = Kind::kLayout;
  PangoLayout* layout = nullptr;  // owned by Document::layouts
  int line = 0;                   // kLine: index into layout
  double x = 0;
  double y = 0;  // kLine: baseline; kLayout: top
  double width = 0;
  double height = 0;
  double gray = 0;
  const PreparedSignature* signature = nullptr;  // kSignature: drawn in the box x, y, width, height
};

// Where a text comes from. Template text (headings, fixed paragraphs, table captions and header
// rows, footers) recurs in every contract of the template and is shaped once per render thread
// (documents::SharedTextLayout); a contract's own values are shaped per document.
enum class TextSource { kTemplate, kContract };

// The prepared signature of each participant who has one, by participant id.
using SignatureFills = std::map<std::string, PreparedSignature, std::less<>>;

// Lays the body out into pages of DrawOps. Every PangoLayout it makes lives until rendering ends.
class Document {
 public:
  Document(PangoContext* context, const RenderOptions& options)
      : context_(context),
        options_(options),
        left_(options.margin),
        width_(kPageWidth - 2 * options.margin),
        bottom_(kPageHeight - options.margin - kFooterHeight) {
    pages_.emplace_back();
    y_ = options.margin;
  }

  PangoLayout* MakeLayout(const std::string& text, double size, bool bold, double width,
                          TextSource source, PangoAlignment alignment = PANGO_ALIGN_LEFT) {
    GPtr<PangoLayout> layout;
    if (source == TextSource::kTemplate) {
      layout = documents::SharedTextLayout(context_, options_.font_families, size, width, bold,
                                           options_.ligatures, alignment, text);
    } else {
      layout = documents::NewTextLayout(context_, options_.font_families, size, width, bold,
                                        options_.ligatures);
      pango_layout_set_alignment(layout.get(), alignment);
      pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
    }
    layouts_.push_back(std::move(layout));
    return layouts_.back().get();
  }

  static double HeightOf(PangoLayout* layout) { return documents::LayoutHeight(layout); }

  double Remaining() const { return bottom_ - y_; }
  void NewPage() {
    pages_.emplace_back();
    y_ = options_.margin;
  }
  void Space(double points) { y_ = std::min(y_ + points, bottom_); }

  // Flows a wrapped text line by line, so a long paragraph continues on the next page.
  void Flow(const std::string& text, TextSource source, double size, bool bold,
            double space_after) {
    PangoLayout* layout = MakeLayout(text, size, bold, width_, source);
    PangoLayoutIter* iter = pango_layout_get_iter(layout);
    int index = 0;
    do {
      int top = 0;
      int bottom = 0;
      pango_layout_iter_get_line_yrange(iter, &top, &bottom);
      const double line_height = static_cast<double>(bottom - top) / PANGO_SCALE;
      const double baseline =
          static_cast<double>(pango_layout_iter_get_baseline(iter) - top) / PANGO_SCALE;
      PangoRectangle logical;
      pango_layout_iter_get_line_extents(iter, nullptr, &logical);
      if (line_height > Remaining()) NewPage();
      pages_.back().push_back({.kind = DrawOp::Kind::kLine,
                               .layout = layout,
                               .line = index,
                               .x = left_ + static_cast<double>(logical.x) / PANGO_SCALE,
                               .y = y_ + baseline});
      y_ += line_height;
      ++index;
    } while (pango_layout_iter_next_line(iter) != 0);
    pango_layout_iter_free(iter);
    Space(space_after);
  }

  void TitleBlock(const std::string& title, const std::string& subtitle) {
    Flow(title.empty() ? std::string(kMissingValue) : title, TextSource::kContract,
         options_.body_font_size * 2, true, 4);
    Flow(subtitle, TextSource::kContract, options_.body_font_size * 0.9, false, 6);
    pages_.back().push_back(
        {.kind = DrawOp::Kind::kRule, .x = left_, .y = y_, .width = width_, .gray = 0.5});
    Space(options_.body_font_size * 1.5);
  }

  void Heading(const std::string& text, int64_t level) {
    const double scale = level <= 1 ? 1.6 : (level == 2 ? 1.3 : 1.1);
    const double size = options_.body_font_size * scale;
    PangoLayout* layout = MakeLayout(text, size, true, width_, TextSource::kTemplate);
    // A heading keeps with the start of what follows: never alone at the foot of a page.
    const double needed = HeightOf(layout) + 3 * options_.body_font_size * 1.4;
    if (y_ > options_.margin && needed > Remaining()) NewPage();
    if (y_ > options_.margin) Space(size * 0.6);
    pages_.back().push_back({.kind = DrawOp::Kind::kLayout, .layout = layout, .x = left_, .y = y_});
    y_ += HeightOf(layout);
    Space(size * 0.4);
  }

  void Paragraph(const std::string& text, TextSource source) {
    Flow(text, source, options_.body_font_size, false, options_.body_font_size * 0.8);
  }

  // A table from tableData: the header row opens the table and every page it continues on.
  void Table(const TableDef& table, const boost::json::array* rows) {
    if (!table.label.empty()) {
      PangoLayout* caption =
          MakeLayout(table.label, options_.body_font_size, true, width_, TextSource::kTemplate);
      if (HeightOf(caption) + 3 * options_.body_font_size * 2 > Remaining()) NewPage();
      pages_.back().push_back(
          {.kind = DrawOp::Kind::kLayout, .layout = caption, .x = left_, .y = y_});
      y_ += HeightOf(caption) + 2;
    }
    const size_t columns = std::max<size_t>(table.columns.size(), 1);
    const double column_width = width_ / static_cast<double>(columns);
    std::vector<std::string> header;
    header.reserve(table.columns.size());
    for (const auto& column : table.columns) header.push_back(column.label);
    const auto make_row = [&](const std::vector<std::string>& cells, bool bold, TextSource source) {
      std::vector<PangoLayout*> row;
      row.reserve(cells.size());
      for (const auto& cell : cells) {
        row.push_back(MakeLayout(cell, options_.body_font_size * 0.95, bold,
                                 column_width - 2 * kCellPadding, source));
      }
      return row;
    };
    const auto row_height = [](const std::vector<PangoLayout*>& row) {
      return documents::TallestLayout(row) + 2 * kCellPadding;
    };
    const auto place_row = [&](const std::vector<PangoLayout*>& row, double height, bool shaded) {
      auto& page = pages_.back();
      if (shaded) {
        page.push_back({.kind = DrawOp::Kind::kFillRect,
                        .x = left_,
                        .y = y_,
                        .width = width_,
                        .height = height,
                        .gray = 0.9});
      }
      for (size_t i = 0; i < row.size(); ++i) {
        const double x = left_ + column_width * static_cast<double>(i);
        page.push_back({.kind = DrawOp::Kind::kStrokeRect,
                        .x = x,
                        .y = y_,
                        .width = column_width,
                        .height = height,
                        .gray = 0.4});
        page.push_back({.kind = DrawOp::Kind::kLayout,
                        .layout = row[i],
                        .x = x + kCellPadding,
                        .y = y_ + kCellPadding});
      }
      y_ += height;
    };
    const auto place_header = [&] {
      const auto row = make_row(header, true, TextSource::kTemplate);
      place_row(row, row_height(row), true);
    };
    place_header();
    if (rows != nullptr) {
      for (const auto& row_value : *rows) {
        const auto* object = row_value.if_object();
        std::vector<std::string> cells;
        cells.reserve(table.columns.size());
        for (const auto& column : table.columns) {
          const auto* value = object != nullptr ? object->if_contains(column.key) : nullptr;
          cells.push_back(value != nullptr ? DisplayValue(*value) : std::string(kMissingValue));
        }
        const auto row = make_row(cells, false, TextSource::kContract);
        const double height = row_height(row);
        if (height > Remaining()) {
          NewPage();
          place_header();
        }
        place_row(row, height, false);
      }
    }
    Space(options_.body_font_size);
  }

  // Makes sure the document has at least `count` pages (signature boxes may sit on a page the
  // body does not reach).
  void EnsurePages(size_t count) {
    while (pages_.size() < count) pages_.emplace_back();
  }

  void AddBox(size_t page, double x, double y, double width, double height,
              const std::string& label) {
    EnsurePages(page);
    auto& ops = pages_[page - 1];
    ops.push_back({.kind = DrawOp::Kind::kStrokeRect,
                   .x = x,
                   .y = y,
                   .width = width,
                   .height = height,
                   .gray = 0.3});
    PangoLayout* layout =
        MakeLayout(label, options_.body_font_size * 0.8, false,
                   std::max(width - 2 * kCellPadding, 1.0), TextSource::kContract);
    ops.push_back(
        {.kind = DrawOp::Kind::kLayout, .layout = layout, .x = x + kCellPadding, .y = y + 2});
  }

  // A placement box filled with a signer's signature instead of the role's label.
  void AddSignature(size_t page, const SignaturePlacement& box,
                    const PreparedSignature& signature) {
    EnsurePages(page);
    pages_[page - 1].push_back({.kind = DrawOp::Kind::kSignature,
                                .x = box.x,
                                .y = box.y,
                                .width = box.width,
                                .height = box.height,
                                .signature = &signature});
  }

  std::vector<std::vector<DrawOp>>& pages() { return pages_; }
  double left() const { return left_; }
  double width() const { return width_; }

 private:
  PangoContext* context_;
  const RenderOptions& options_;
  double left_;
  double width_;
  double bottom_;
  double y_ = 0;
  std::vector<GPtr<PangoLayout>> layouts_;
  std::vector<std::vector<DrawOp>> pages_;
};

const std::string* ParticipantName(const ContractState& state, std::string_view participant_id) {
  const Participant* participant = state.FindParticipant(participant_id);
  return participant != nullptr ? &participant->name : nullptr;
}

std::string RoleLabel(const TemplateVersion& version, const std::string& template_role_id,
                      const std::string* participant_name) {
  const RoleDef* role = version.FindRole(template_role_id);
  std::string label = role != nullptr ? role->name : template_role_id;
  if (participant_name != nullptr && !participant_name->empty()) {
    label += " \u2014 " + *participant_name;
  }
  return label;
}

// The signatures block: one line per signing role with who fills it, in routing order.
void SignaturesBlock(Document& doc, const TemplateVersion& version, const ContractState& state) {
  doc.Heading("Signatures", 2);
  if (!state.prepared_roles.empty()) {
    auto roles = state.prepared_roles;
    std::stable_sort(roles.begin(), roles.end(), [](const auto& a, const auto& b) {
      return a.routing_order < b.routing_order;
    });
    for (const auto& role : roles) {
      if (role.action != ParticipantAction::kSign) continue;
      doc.Paragraph(
          RoleLabel(version, role.template_role_id, ParticipantName(state, role.participant_id)),
          TextSource::kContract);
    }
    return;
  }
  for (const auto& role : version.roles) {
    if (role.action != ParticipantAction::kSign) continue;
    const std::string* name = nullptr;
    for (const auto& binding : state.role_bindings) {
      if (binding.template_role_id == role.template_role_id) {
        name = ParticipantName(state, binding.participant_id);
      }
    }
    doc.Paragraph(RoleLabel(version, role.template_role_id, name),
                  name != nullptr ? TextSource::kContract : TextSource::kTemplate);
  }
}

// The importer forbids pages outside 1..1000; never loop on a hand-built one.
bool DrawablePage(const SignaturePlacement& p) { return p.page >= 1 && p.page <= 1000; }

// A labelled box at every placement, or the signer's signature where `fills` has one.
void SignatureBoxes(Document& doc, const TemplateVersion& version, const ContractState& state,
                    const SignatureFills& fills) {
  const auto add = [&](const std::vector<SignaturePlacement>& placements,
                       const std::string& label) {
    for (const auto& p : placements) {
      if (!DrawablePage(p)) continue;
      doc.AddBox(static_cast<size_t>(p.page), p.x, p.y, p.width, p.height, label);
    }
  };
  if (!state.prepared_roles.empty()) {
    for (const auto& role : state.prepared_roles) {
      const auto fill = fills.find(role.participant_id);
      if (fill == fills.end()) {
        add(role.signature_placement,
            RoleLabel(version, role.template_role_id, ParticipantName(state, role.participant_id)));
        continue;
      }
      for (const auto& p : role.signature_placement) {
        if (DrawablePage(p)) doc.AddSignature(static_cast<size_t>(p.page), p, fill->second);
      }
    }
    return;
  }
  for (const auto& role : version.roles) {
    add(role.signature_placement, RoleLabel(version, role.template_role_id, nullptr));
  }
}

void Paint(cairo_t* cr, PangoContext* context, const RenderOptions& options, const DrawOp& op) {
  switch (op.kind) {
    case DrawOp::Kind::kLine:
      cairo_set_source_rgb(cr, 0, 0, 0);
      cairo_move_to(cr, op.x, op.y);
      pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(op.layout, op.line));
      break;
    case DrawOp::Kind::kLayout:
      documents::PaintLayout(cr, op.x, op.y, op.layout);
      break;
    case DrawOp::Kind::kStrokeRect:
      documents::PaintRect(cr, op.x, op.y, op.width, op.height, op.gray, false);
      break;
    case DrawOp::Kind::kFillRect:
      documents::PaintRect(cr, op.x, op.y, op.width, op.height, op.gray, true);
      break;
    case DrawOp::Kind::kRule:
      documents::PaintRule(cr, op.x, op.y, op.width, op.gray, 0.75);
      break;
    case DrawOp::Kind::kSignature:
      documents::DrawSignature(cr, context,
                               {.x = op.x, .y = op.y, .width = op.width, .height = op.height},
                               *op.signature,
                               {.signature_families = options.signature_font_families,
                                .caption_families = options.font_families});
      break;
  }
}

// The prepared signature of every appearance, refusing an appearance nobody can sign with.
Result<SignatureFills> PrepareFills(
    const ContractState& state, const std::vector<documents::SignatureAppearance>& appearances) {
  SignatureFills fills;
  for (const auto& appearance : appearances) {
    const bool prepared = std::any_of(
        state.prepared_roles.begin(), state.prepared_roles.end(),
        [&](const PreparedRole& role) { return role.participant_id == appearance.participant_id; });
    if (!prepared) {
      return Fail(ErrorCode::kValidationFailed,
                  "participant " + appearance.participant_id + " has no prepared role",
                  "participantId", "must be a participant of a prepared role");
    }
    if (fills.contains(appearance.participant_id)) {
      return Fail(ErrorCode::kValidationFailed,
                  "participant " + appearance.participant_id + " has two signature appearances",
                  "participantId", "must appear once");
    }
    auto signature = documents::PrepareSignature(appearance);
    if (!signature) return std::unexpected(std::move(signature.error()));
    fills.emplace(appearance.participant_id, std::move(*signature));
  }
  return fills;
}

Result<std::string> Render(const Template& tmpl, const TemplateVersion& version,
                           const ContractState& state, const SignatureFills& fills,
                           const RenderOptions& options) {
  auto canvas = documents::PdfCanvas::Create({.date = PdfMetadataDate(state.created_at),
                                              .title = state.title,
                                              .author = state.organization_id,
                                              .subject = "Contract " + state.id});
  if (!canvas) return std::unexpected(std::move(canvas.error()));
  cairo_t* cr = (*canvas)->cr();
  PangoContext* context = (*canvas)->context();

  // Layout first, so every footer knows the page count.
  Document doc(context, options);
  doc.TitleBlock(state.title, "Contract " + state.id + "  \u00b7  " + tmpl.name + " (" +
                                  version.template_version_id + ")");
  for (const auto& block : version.body) {
    switch (block.type) {
      case BlockType::kHeading:
        doc.Heading(block.text, block.level);
        break;
      case BlockType::kParagraph: {
        std::string text = SubstitutePlaceholders(block.text, state.data.field_values);
        const TextSource source =
            text == block.text ? TextSource::kTemplate : TextSource::kContract;
        doc.Paragraph(text, source);
        break;
      }
      case BlockType::kTable: {
        const TableDef* table = version.FindTable(block.table_key);
        if (table == nullptr) break;  // the importer guarantees the key; a hand-built one may not
        const auto* rows = state.data.table_data.if_contains(block.table_key);
        doc.Table(*table, rows != nullptr ? rows->if_array() : nullptr);
        break;
      }
      case BlockType::kSignatures:
        SignaturesBlock(doc, version, state);
        break;
    }
  }
  SignatureBoxes(doc, version, state, fills);

  auto& pages = doc.pages();
  const size_t total = pages.size();
  for (size_t i = 0; i < total; ++i) {
    for (const auto& op : pages[i]) Paint(cr, context, options, op);
    PangoLayout* footer =
        doc.MakeLayout("Page " + std::to_string(i + 1) + " of " + std::to_string(total),
                       options.body_font_size * 0.85, false, doc.width(), TextSource::kTemplate,
                       PANGO_ALIGN_CENTER);
    Paint(cr, context, options,
          {.kind = DrawOp::Kind::kLayout,
           .layout = footer,
           .x = doc.left(),
           .y = kPageHeight - options.margin - Document::HeightOf(footer)});
    cairo_show_page(cr);
  }
  return (*canvas)->Finish();
}

}  // namespace

Result<std::string> RenderContractPdf(const Template& tmpl, const TemplateVersion& version,
                                      const ContractState& state, const RenderOptions& options) {
  return Render(tmpl, version, state, {}, options);
}

Result<std::string> RenderSignedContractPdf(
    const Template& tmpl, const TemplateVersion& version, const ContractState& state,
    const std::vector<documents::SignatureAppearance>& appearances, const RenderOptions& options) {
  auto fills = PrepareFills(state, appearances);
  if (!fills) return std::unexpected(std::move(fills.error()));
  return Render(tmpl, version, state, *fills, options);
}

}  // namespace esign
