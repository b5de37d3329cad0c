#include "documents/pdf_renderer.h"

#include <cairo.h>
#include <pango/pango.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "documents/page_layout.h"
#include "documents/pdf_canvas.h"
#include "documents/pdf_layout.h"
#include "documents/signature_drawing.h"
#include "documents/signature_keeping.h"
#include "domain/placed_field_rules.h"

namespace esign {
namespace {

constexpr double kCellPadding = 4.0;

using documents::PageLayout;
using documents::PageOp;
using documents::PreparedSignature;
using documents::TextReuse;

// Template text (headings, fixed paragraphs, table captions and header rows, footers) recurs in
// every contract of the template and is shaped once per render thread; a contract's own values
// are shaped per document.
constexpr TextReuse kTemplateText = TextReuse::kShared;
constexpr TextReuse kContractText = TextReuse::kOwn;

// The prepared signature of each participant who has one, by participant id.
using SignatureFills = std::map<std::string, PreparedSignature, std::less<>>;

// What a contract's body lays out, in its sizes and spacing; where it goes is the PageLayout's.
class Document {
 public:
  Document(PageLayout& pages, const RenderOptions& options) : pages_(pages), options_(options) {}

  PageLayout& pages() { return pages_; }

  void TitleBlock(const std::string& title, const std::string& subtitle) {
    Flow(title.empty() ? std::string(kMissingValue) : title, kContractText,
         options_.body_font_size * 2, true, 4);
    Flow(subtitle, kContractText, options_.body_font_size * 0.9, false, 6);
    pages_.Rule(0.5, 0.75);
    pages_.Space(options_.body_font_size * 1.5);
  }

  void Heading(const std::string& text, int64_t level) {
    const double scale = level <= 1 ? 1.6 : (level == 2 ? 1.3 : 1.1);
    const double size = options_.body_font_size * scale;
    PangoLayout* layout =
        pages_.Text(text, {.size = size, .width = pages_.width(), .bold = true}, kTemplateText);
    // A heading keeps with the start of what follows: never alone at the foot of a page.
    pages_.KeepWithNext(PageLayout::HeightOf(layout) + 3 * options_.body_font_size * 1.4);
    if (!pages_.AtTop()) pages_.Space(size * 0.6);
    pages_.Place(layout);
    pages_.Space(size * 0.4);
  }

  void Paragraph(const std::string& text, TextReuse reuse) {
    Flow(text, reuse, options_.body_font_size, false, options_.body_font_size * 0.8);
  }

  // A table from tableData: the header row opens the table and every page it continues on.
  void Table(const TableDef& table, const boost::json::array* rows) {
    if (!table.label.empty()) {
      PangoLayout* caption = pages_.Text(
          table.label, {.size = options_.body_font_size, .width = pages_.width(), .bold = true},
          kTemplateText);
      pages_.BreakUnlessFits(PageLayout::HeightOf(caption) + 3 * options_.body_font_size * 2);
      pages_.Place(caption, 2);
    }
    const auto columns = documents::EqualColumns(table.columns.size(), pages_.width());
    const double cell_width = columns.front().width - 2 * kCellPadding;
    const auto cell = [&](const std::string& text, bool bold, TextReuse reuse) {
      return pages_.Text(
          text, {.size = options_.body_font_size * 0.95, .width = cell_width, .bold = bold}, reuse);
    };
    std::vector<PangoLayout*> header;
    header.reserve(table.columns.size());
    for (const auto& column : table.columns)
      header.push_back(cell(column.label, true, kTemplateText));
    std::vector<std::vector<PangoLayout*>> cells;
    if (rows != nullptr) {
      cells.reserve(rows->size());
      for (const auto& row_value : *rows) {
        const auto* object = row_value.if_object();
        auto& row = cells.emplace_back();
        row.reserve(table.columns.size());
        for (const auto& column : table.columns) {
          const auto* value = object != nullptr ? object->if_contains(column.key) : nullptr;
          row.push_back(cell(value != nullptr ? DisplayValue(*value) : std::string(kMissingValue),
                             false, kContractText));
        }
      }
    }
    pages_.Table(columns, header, cells, {.padding = kCellPadding});
    pages_.Space(options_.body_font_size);
  }

  void AddBox(size_t page, const SignaturePlacement& box, const std::string& label) {
    pages_.AddToPage(page, {.kind = PageOp::Kind::kStrokeRect,
                            .x = box.x,
                            .y = box.y,
                            .width = box.width,
                            .height = box.height,
                            .gray = 0.3});
    PangoLayout* layout = pages_.Text(label,
                                      {.size = options_.body_font_size * 0.8,
                                       .width = std::max(box.width - 2 * kCellPadding, 1.0)},
                                      kContractText);
    pages_.AddToPage(page, {.kind = PageOp::Kind::kLayout,
                            .layout = layout,
                            .x = box.x + kCellPadding,
                            .y = box.y + 2});
  }

  // The box of a field its signer fills in or the sealing stamps (field_stamper.h), unlabelled:
  // the value goes in it.
  void AddFieldBox(size_t page, const PageRect& box) {
    pages_.AddToPage(page, {.kind = PageOp::Kind::kStrokeRect,
                            .x = box.x,
                            .y = box.y,
                            .width = box.width,
                            .height = box.height,
                            .gray = 0.6});
  }

  // A placement box filled with a signer's signature instead of the role's label.
  void AddSignature(size_t page, const SignaturePlacement& box,
                    const PreparedSignature& signature) {
    pages_.AddToPage(page, {.kind = PageOp::Kind::kBox,
                            .x = box.x,
                            .y = box.y,
                            .width = box.width,
                            .height = box.height,
                            .box = signatures_.size()});
    signatures_.push_back(&signature);
  }

  const PreparedSignature& signature(size_t box) const { return *signatures_[box]; }

 private:
  // A wrapped text flowing line by line, so a long paragraph continues on the next page.
  void Flow(const std::string& text, TextReuse reuse, double size, bool bold, double space_after) {
    pages_.Flow(pages_.Text(text, {.size = size, .width = pages_.width(), .bold = bold}, reuse));
    pages_.Space(space_after);
  }

  PageLayout& pages_;
  const RenderOptions& options_;
  std::vector<const PreparedSignature*> signatures_;  // by PageOp::box
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
          kContractText);
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
                  name != nullptr ? kContractText : kTemplateText);
  }
}

// The importer forbids pages outside 1..1000; never loop on a hand-built one.
bool DrawablePage(const SignaturePlacement& p) { return p.page >= 1 && p.page <= 1000; }

// A labelled box at every placement, or the signer's signature where `fills` has one.
void SignatureBoxes(Document& doc, const TemplateVersion& version, const ContractState& state,
                    const std::vector<PreparedRole>& prepared_roles, const SignatureFills& fills) {
  const auto add = [&](const std::vector<SignaturePlacement>& placements,
                       const std::string& label) {
    for (const auto& p : placements) {
      if (!DrawablePage(p)) continue;
      doc.AddBox(static_cast<size_t>(p.page), p, label);
    }
  };
  if (!prepared_roles.empty()) {
    for (const auto& role : prepared_roles) {
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

// A box at each field of the contract's roles (on the pages it renders), so that each page a
// field names exists to be stamped.
void FieldBoxes(Document& doc, const ContractState& state) {
  static_assert(kRenderedPageWidth == documents::kA4Width &&
                kRenderedPageHeight == documents::kA4Height);
  for (const PlacedField& field : state.fields) {
    if (field.box.page < 1 || field.box.page > kMaxRenderedFieldPage) continue;
    doc.AddFieldBox(static_cast<size_t>(field.box.page), field.box);
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

// The prepared roles with their boxes kept with the text, as signature_keeping.h moves them.
std::vector<PreparedRole> KeptWithText(const ContractState& state, const PageLayout& pages) {
  std::vector<PreparedRole> roles = state.prepared_roles;
  std::vector<std::vector<SignaturePlacement>*> placements;
  for (auto& role : roles) {
    if (role.action == ParticipantAction::kSign) placements.push_back(&role.signature_placement);
  }
  std::vector<int64_t> field_pages;
  field_pages.reserve(state.fields.size());
  for (const PlacedField& field : state.fields) field_pages.push_back(field.box.page);
  documents::KeepSignaturesWithText(placements,
                                    {.page = pages.page_count(),
                                     .y = pages.y(),
                                     .top = pages.top(),
                                     .bottom = pages.y() + pages.Remaining(),
                                     .left = pages.left(),
                                     .right = pages.left() + pages.width()},
                                    field_pages);
  return roles;
}

// `kept`, when given, receives the prepared roles with their boxes kept with the text, which
// are drawn instead of the state's.
Result<std::string> Render(const Template& tmpl, const TemplateVersion& version,
                           const ContractState& state, const SignatureFills& fills,
                           const RenderOptions& options,
                           std::vector<PreparedRole>* kept = nullptr) {
  const documents::PdfMetadata metadata{
      .date = PdfMetadataDate(state.created_at),
      .title = state.title,
      // A contract prepared before names were recorded keeps its id, as frozen.
      .author = state.organization_name.empty() ? state.organization_id : state.organization_name,
      .subject = "Contract " + state.id};
  PangoContext* context = documents::ThisThreadPangoContext();
  PageLayout pages(context, {.margin = options.margin},
                   {.families = options.font_families, .ligatures = options.ligatures});
  Document doc(pages, options);
  doc.TitleBlock(state.title, "Contract " + state.id + "  \u00b7  " + tmpl.name + " (" +
                                  version.template_version_id + ")");
  for (const auto& block : version.body) {
    switch (block.type) {
      case BlockType::kHeading:
        doc.Heading(block.text, block.level);
        break;
      case BlockType::kParagraph: {
        std::string text = SubstitutePlaceholders(block.text, state.data.field_values);
        doc.Paragraph(text, text == block.text ? kTemplateText : kContractText);
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
  if (kept != nullptr) *kept = KeptWithText(state, pages);
  SignatureBoxes(doc, version, state, kept != nullptr ? *kept : state.prepared_roles, fills);
  FieldBoxes(doc, state);

  const auto footer = [&](size_t page, size_t total) {
    return pages.Text("Page " + std::to_string(page) + " of " + std::to_string(total),
                      {.size = options.body_font_size * 0.85,
                       .width = pages.width(),
                       .alignment = PANGO_ALIGN_CENTER},
                      kTemplateText);
  };
  if (options.writer == RenderOptions::Writer::kOwn && fills.empty()) {
    documents::PdfWriter writer(metadata);
    auto written = pages.Finish(writer, footer);
    // A face the writer cannot embed: cairo paints the same pages.
    if (written || writer.supported()) return written;
  }
  auto canvas = documents::PdfCanvas::Create(metadata);
  if (!canvas) return std::unexpected(std::move(canvas.error()));
  return pages.Finish(**canvas, footer, [&](cairo_t* cr, const PageOp& op) {
    documents::DrawSignature(cr, context,
                             {.x = op.x, .y = op.y, .width = op.width, .height = op.height},
                             doc.signature(op.box),
                             {.signature_families = options.signature_font_families,
                              .caption_families = options.font_families});
  });
}

}  // namespace

Result<std::string> RenderContractPdf(const Template& tmpl, const TemplateVersion& version,
                                      const ContractState& state, const RenderOptions& options) {
  return Render(tmpl, version, state, {}, options);
}

Result<SentRendering> RenderContractPdfForSend(const Template& tmpl, const TemplateVersion& version,
                                               const ContractState& prepared,
                                               const RenderOptions& options) {
  std::vector<PreparedRole> kept;
  auto pdf = Render(tmpl, version, prepared, {}, options, &kept);
  if (!pdf) return std::unexpected(std::move(pdf.error()));
  SentRendering sent{.pdf = std::move(*pdf)};
  for (size_t i = 0; i < kept.size(); ++i) {
    const bool moved =
        kept[i].signature_placement != prepared.prepared_roles[i].signature_placement;
    if (moved)
      sent.signature_placements.emplace(kept[i].participant_id, kept[i].signature_placement);
  }
  return sent;
}

Result<std::string> RenderSignedContractPdf(
    const Template& tmpl, const TemplateVersion& version, const ContractState& state,
    const std::vector<documents::SignatureAppearance>& appearances, const RenderOptions& options) {
  auto fills = PrepareFills(state, appearances);
  if (!fills) return std::unexpected(std::move(fills.error()));
  return Render(tmpl, version, state, *fills, options);
}

}  // namespace esign
