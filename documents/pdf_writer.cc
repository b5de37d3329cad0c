#include "documents/pdf_writer.h"

#include <fontconfig/fontconfig.h>
#include <hb-ot.h>
#include <pango/pangofc-font.h>
#include <qpdf/QUtil.hh>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "base/sha256.h"
#include "documents/deflate.h"
#include "documents/pdf_font_subset.h"

namespace esign::documents {

// Each glyph shown, by id in its face, with the text it stands for.
using GlyphTexts = std::unordered_map<uint32_t, std::string>;

struct PdfWriter::FontUse {
  FacePtr face;
  // Every glyph shown, with the text it stands for (empty: a glyph after the first of its
  // cluster, which stands for nothing on its own).
  GlyphTexts text_of_glyph;
  std::shared_ptr<const FontSubset> subset;  // made by Finish
};

namespace {

// A number as PDF writes it: rounded to thousandths, no trailing zeros, no exponent. (Called
// for about every glyph: std::to_chars with a precision took a tenth of a render.)
void AppendNumber(std::string& out, double value) {
  if (!std::isfinite(value)) value = 0;  // never in a page; "nan" would not be PDF
  const double thousandths = std::round(value * 1000.0);
  constexpr double kLargest = 1e15;  // far beyond any coordinate; printed whole
  if (!(std::abs(thousandths) < kLargest)) {
    char buffer[32];
    auto [end, error] =
        std::to_chars(buffer, buffer + sizeof(buffer), std::round(value), std::chars_format::fixed);
    out.append(buffer, error == std::errc() ? end : buffer);
    return;
  }
  auto count = static_cast<int64_t>(thousandths);
  if (count < 0) {
    out.push_back('-');
    count = -count;
  }
  char buffer[24];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), count / 1000);
  out.append(buffer, end);
  int fraction = static_cast<int>(count % 1000);
  if (fraction == 0) return;
  out.push_back('.');
  for (int digit = 100; fraction != 0; digit /= 10) {
    out.push_back(static_cast<char>('0' + fraction / digit));
    fraction %= digit;
  }
}

void AppendNumbers(std::string& out, std::initializer_list<double> values) {
  for (const double value : values) {
    AppendNumber(out, value);
    out.push_back(' ');
  }
}

void AppendHex4(std::string& out, uint32_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kDigits[(value >> shift) & 0xf]);
}

// UTF-8 as UTF-16BE code units in upper-case hex, without a byte order mark (QPDF converts;
// what cannot be represented becomes U+FFFD).
void AppendUtf16Hex(std::string& out, std::string_view utf8) {
  std::string utf16 = QUtil::utf8_to_utf16(std::string(utf8));
  if (utf16.starts_with("\xFE\xFF")) utf16.erase(0, 2);
  for (size_t i = 0; i + 1 < utf16.size(); i += 2) {
    AppendHex4(out, (static_cast<uint32_t>(static_cast<uint8_t>(utf16[i])) << 8) |
                        static_cast<uint8_t>(utf16[i + 1]));
  }
}

// A text string of the document information: UTF-16BE with its byte order mark.
std::string TextString(std::string_view utf8) {
  std::string out = "<FEFF";
  AppendUtf16Hex(out, utf8);
  out.push_back('>');
  return out;
}

// "2026-01-07T10:00:00Z" (PdfMetadataDate) as a PDF date.
std::string PdfDate(std::string_view iso) {
  std::string digits;
  for (const char c : iso.substr(0, 19)) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  if (digits.size() != 14) digits = "19700101000000";
  return "(D:" + digits + "Z)";
}

std::string ToUnicodeCMap(const FontSubset& subset, const GlyphTexts& text) {
  std::vector<std::pair<uint32_t, const std::string*>> entries;
  for (const auto& [old_glyph, chars] : text) {
    if (chars.empty()) continue;
    auto it = subset.new_glyph.find(old_glyph);
    if (it != subset.new_glyph.end()) entries.emplace_back(it->second, &chars);
  }
  std::sort(entries.begin(), entries.end());
  std::string out =
      "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
      "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
      "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n";
  constexpr size_t kPerBlock = 100;  // the most a bfchar block may hold
  for (size_t at = 0; at < entries.size(); at += kPerBlock) {
    const size_t count = std::min(kPerBlock, entries.size() - at);
    out += std::to_string(count) + " beginbfchar\n";
    for (size_t i = at; i < at + count; ++i) {
      out.push_back('<');
      AppendHex4(out, entries[i].first);
      out += "> <";
      AppendUtf16Hex(out, *entries[i].second);
      out += ">\n";
    }
    out += "endbfchar\n";
  }
  out += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
  return out;
}

// The /W array of the glyphs shown: runs of consecutive ids with their widths.
std::string WidthsArray(const FontSubset& subset, const GlyphTexts& text) {
  std::set<uint32_t> shown;
  for (const auto& [old_glyph, chars] : text) {
    auto it = subset.new_glyph.find(old_glyph);
    if (it != subset.new_glyph.end()) shown.insert(it->second);
  }
  std::string out = "[";
  uint32_t next = 0;
  bool open = false;
  for (const uint32_t glyph : shown) {
    if (!open || glyph != next) {
      if (open) out += "] ";
      out += std::to_string(glyph) + " [";
      open = true;
    } else {
      out.push_back(' ');
    }
    out += std::to_string(glyph < subset.widths.size() ? subset.widths[glyph] : 0);
    next = glyph + 1;
  }
  if (open) out += "]";
  out += "]";
  return out;
}

// Collects the objects of the file and their offsets.
class ObjectWriter {
 public:
  ObjectWriter() { out_ = "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n"; }
  // Reserves the next object number.
  size_t Reserve() {
    offsets_.push_back(0);
    return offsets_.size();
  }
  void Write(size_t number, std::string_view dictionary) {
    Begin(number);
    out_.append(dictionary);
    out_ += "\nendobj\n";
  }
  void WriteStream(size_t number, const std::string& dictionary_entries, std::string_view data) {
    Begin(number);
    out_ +=
        "<< " + dictionary_entries + " /Length " + std::to_string(data.size()) + " >>\nstream\n";
    out_.append(data);
    out_ += "\nendstream\nendobj\n";
  }
  // Bytes the document's /ID is derived from.
  void IdentifyBy(std::string_view bytes) { identity_.append(bytes); }
  std::string Finish(size_t root, size_t info) {
    const size_t xref = out_.size();
    out_ += "xref\n0 " + std::to_string(offsets_.size() + 1) + "\n0000000000 65535 f \n";
    char line[32];
    for (const size_t offset : offsets_) {
      std::snprintf(line, sizeof(line), "%010zu 00000 n \n", offset);
      out_ += line;
    }
    // A deterministic /ID: the hash of what tells the document apart (IdentifyBy), not of its
    // font programs, whose subset tags name them.
    const std::string id = Sha256Hex(identity_).substr(0, 32);
    out_ += "trailer\n<< /Size " + std::to_string(offsets_.size() + 1) + " /Root " +
            std::to_string(root) + " 0 R /Info " + std::to_string(info) + " 0 R /ID [<" + id +
            "> <" + id + ">] >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
    return std::move(out_);
  }

 private:
  void Begin(size_t number) {
    offsets_[number - 1] = out_.size();
    out_ += std::to_string(number) + " 0 obj\n";
  }
  std::string out_;
  std::string identity_;
  std::vector<size_t> offsets_;
};

std::string Ref(size_t number) { return std::to_string(number) + " 0 R"; }

// Why the glyphs of `font` cannot be shown from a subset of `face`, or null when they can: the
// subsetter embeds TrueType outlines as they are, so a CFF face, a variable face (its instance's
// outlines would need instancing) and a face the renderer emboldens or slants itself (fontconfig's
// embolden or matrix, for a weight or style the family lacks) are left to cairo.
const char* WhyNotEmbeddable(PangoFont* font, hb_face_t* face) {
  if (!HasTrueTypeOutlines(face)) return "no TrueType outlines";
  if (hb_ot_var_has_data(face)) return "a variable font";
  if (!PANGO_IS_FC_FONT(font)) return "not a fontconfig font";
  FcPattern* pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
  FcBool embolden = FcFalse;
  if (FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden) == FcResultMatch && embolden) {
    return "emboldened by the renderer";
  }
  FcMatrix* matrix = nullptr;
  if (FcPatternGetMatrix(pattern, FC_MATRIX, 0, &matrix) == FcResultMatch && matrix != nullptr &&
      (matrix->xx != 1 || matrix->xy != 0 || matrix->yx != 0 || matrix->yy != 1)) {
    return "slanted by the renderer";
  }
  return nullptr;
}

// The objects of one embedded font: its Type 0 font (the number returned), descendant CID font,
// descriptor, program and ToUnicode map.
size_t WriteFont(ObjectWriter& file, const FontSubset& subset, const GlyphTexts& text) {
  const size_t type0 = file.Reserve();
  const size_t cid_font = file.Reserve();
  const size_t descriptor = file.Reserve();
  const size_t program = file.Reserve();
  const size_t to_unicode = file.Reserve();
  const std::string name = subset.tag + "+" + subset.postscript_name;
  file.IdentifyBy(name);
  file.Write(type0, "<< /Type /Font /Subtype /Type0 /BaseFont /" + name +
                        " /Encoding /Identity-H /DescendantFonts [" + Ref(cid_font) +
                        "] /ToUnicode " + Ref(to_unicode) + " >>");
  file.Write(cid_font, "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /" + name +
                           " /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) "
                           "/Supplement 0 >> /FontDescriptor " +
                           Ref(descriptor) + " /CIDToGIDMap /Identity /W " +
                           WidthsArray(subset, text) + " >>");
  // Flags: symbolic (4), as for every font shown by glyph id; fixed pitch (1) when it is.
  std::string descriptor_dictionary = "<< /Type /FontDescriptor /FontName /" + name + " /Flags " +
                                      std::to_string(subset.fixed_pitch ? 5 : 4) + " /FontBBox [";
  AppendNumbers(descriptor_dictionary,
                {static_cast<double>(subset.bbox[0]), static_cast<double>(subset.bbox[1]),
                 static_cast<double>(subset.bbox[2]), static_cast<double>(subset.bbox[3])});
  descriptor_dictionary += "] /ItalicAngle ";
  AppendNumber(descriptor_dictionary, subset.italic_angle);
  descriptor_dictionary += " /Ascent " + std::to_string(subset.ascent) + " /Descent " +
                           std::to_string(subset.descent) + " /CapHeight " +
                           std::to_string(subset.cap_height) + " /StemV 80 /FontFile2 " +
                           Ref(program) + " >>";
  file.Write(descriptor, descriptor_dictionary);
  file.WriteStream(program, "/Filter /FlateDecode /Length1 " + std::to_string(subset.program_size),
                   subset.compressed_program);
  file.WriteStream(to_unicode, "/Filter /FlateDecode", ZlibCompress(ToUnicodeCMap(subset, text)));
  return type0;
}

// A coordinate on pango's grid (1/1024 point), where pango's cairo renderer puts a layout.
double OnPangoGrid(double points) { return pango_units_to_double(pango_units_from_double(points)); }

}  // namespace

PdfWriter::PdfWriter(PdfMetadata metadata) : metadata_(std::move(metadata)) {}

PdfWriter::~PdfWriter() = default;

void PdfWriter::NewPage(double width, double height) {
  pages_.push_back(Page{.width = width, .height = height, .pieces = {}});
}

void PdfWriter::AddOperators(const std::string& operators) {
  Page& current = page();
  if (current.pieces.empty() || current.pieces.back().text) current.pieces.emplace_back();
  current.pieces.back().operators += operators;
}

void PdfWriter::FillRect(double x, double y, double width, double height, double gray) {
  std::string ops;
  AppendNumbers(ops, {gray});
  ops += "g ";
  AppendNumbers(ops, {x, Flip(y + height), width, height});
  ops += "re f\n";
  AddOperators(ops);
}

void PdfWriter::StrokeRect(double x, double y, double width, double height, double gray,
                           double line_width) {
  std::string ops;
  AppendNumbers(ops, {gray});
  ops += "G ";
  AppendNumbers(ops, {line_width});
  ops += "w ";
  AppendNumbers(ops, {x, Flip(y + height), width, height});
  ops += "re S\n";
  AddOperators(ops);
}

void PdfWriter::Rule(double x, double y, double width, double gray, double line_width) {
  std::string ops;
  AppendNumbers(ops, {gray});
  ops += "G ";
  AppendNumbers(ops, {line_width});
  ops += "w ";
  AppendNumbers(ops, {x, Flip(y)});
  ops += "m ";
  AppendNumbers(ops, {x + width, Flip(y)});
  ops += "l S\n";
  AddOperators(ops);
}

std::pair<size_t, double> PdfWriter::FontOf(PangoFont* font) {
  auto [known, added_font] = font_of_pango_font_.try_emplace(font);
  if (!added_font) return {known->second.font, known->second.size};
  // Referenced while the writer may see its address again.
  known->second.held.reset(static_cast<PangoFont*>(g_object_ref(font)));
  FontDescriptionPtr description(pango_font_describe_with_absolute_size(font));
  const double size =
      static_cast<double>(pango_font_description_get_size(description.get())) / PANGO_SCALE;
  hb_face_t* face = hb_font_get_face(pango_font_get_hb_font(font));
  auto [it, added] = font_of_face_.try_emplace(face, fonts_.size());
  if (added) {
    auto use = std::make_unique<FontUse>();
    use->face.reset(hb_face_reference(face));
    fonts_.push_back(std::move(use));
    if (const char* why = WhyNotEmbeddable(font, face);
        why != nullptr && unsupported_face_.empty()) {
      const char* family = pango_font_description_get_family(description.get());
      unsupported_face_ = std::string(family != nullptr ? family : "a font") + " (" + why + ")";
    }
  }
  known->second.font = it->second;
  known->second.size = size;
  return {it->second, size};
}

void PdfWriter::ShowRun(PangoLayoutRun* run, const char* text, double x, double baseline) {
  PangoItem* item = run->item;
  PangoGlyphString* glyphs = run->glyphs;
  PangoFont* font = item->analysis.font;
  if (font == nullptr || glyphs->num_glyphs == 0) return;
  const auto [index, size] = FontOf(font);
  FontUse& use = *fonts_[index];
  auto run_text = std::make_unique<TextRun>(TextRun{.font = index, .size = size, .glyphs = {}});
  run_text->glyphs.reserve(static_cast<size_t>(glyphs->num_glyphs));
  const double run_baseline = baseline - static_cast<double>(run->y_offset) / PANGO_SCALE;
  const int* clusters = glyphs->log_clusters;
  int advance = 0;  // pango units from x
  for (int i = 0; i < glyphs->num_glyphs; ++i) {
    const PangoGlyphInfo& info = glyphs->glyphs[i];
    const double gx = x + static_cast<double>(advance + info.geometry.x_offset) / PANGO_SCALE;
    const double gy = run_baseline + static_cast<double>(info.geometry.y_offset) / PANGO_SCALE;
    advance += info.geometry.width;
    if (info.glyph == PANGO_GLYPH_EMPTY) continue;
    const uint32_t id = (info.glyph & PANGO_GLYPH_UNKNOWN_FLAG) != 0 ? 0 : info.glyph;
    run_text->glyphs.push_back(Glyph{.id = id, .x = gx, .y = Flip(gy)});
    std::string& chars = use.text_of_glyph[id];
    // A cluster's glyphs are side by side; its first one stands for its text, which runs from its
    // start to the next cluster's start in the item. Looked up once per glyph id.
    const bool first_of_cluster = i == 0 || clusters[i] != clusters[i - 1];
    if (id == 0 || !first_of_cluster || !chars.empty()) continue;
    const int start = clusters[i];
    int end = item->length;
    for (int k = 0; k < glyphs->num_glyphs; ++k) {
      if (clusters[k] > start && clusters[k] < end) end = clusters[k];
    }
    chars.assign(text + item->offset + start, static_cast<size_t>(end - start));
  }
  Page& current = page();
  current.pieces.push_back(Piece{.operators = {}, .text = std::move(run_text)});
}

void PdfWriter::ShowLayoutLine(PangoLayoutLine* line, double x, double baseline) {
  x = OnPangoGrid(x);
  baseline = OnPangoGrid(baseline);
  const char* text = pango_layout_get_text(line->layout);
  int offset = 0;  // pango units
  for (GSList* node = line->runs; node != nullptr; node = node->next) {
    auto* run = static_cast<PangoLayoutRun*>(node->data);
    ShowRun(run, text, x + static_cast<double>(offset) / PANGO_SCALE, baseline);
    offset += pango_glyph_string_get_width(run->glyphs);
  }
}

void PdfWriter::ShowLayout(PangoLayout* layout, double x, double y) {
  x = OnPangoGrid(x);
  y = OnPangoGrid(y);
  PangoLayoutIter* iter = pango_layout_get_iter(layout);
  do {
    PangoRectangle logical;
    pango_layout_iter_get_line_extents(iter, nullptr, &logical);
    const int baseline = pango_layout_iter_get_baseline(iter);
    ShowLayoutLine(pango_layout_iter_get_line_readonly(iter),
                   x + static_cast<double>(logical.x) / PANGO_SCALE,
                   y + static_cast<double>(baseline) / PANGO_SCALE);
  } while (pango_layout_iter_next_line(iter));
  pango_layout_iter_free(iter);
}

void PdfWriter::AppendText(std::string& content, const TextRun& run, const FontSubset& subset) {
  content += "0 g BT /F" + std::to_string(run.font + 1) + " ";
  AppendNumber(content, run.size);
  content += " Tf\n";
  // The pen after the last glyph shown; a glyph elsewhere moves it first, by a TJ
  // adjustment on the same baseline, else by a new text matrix.
  double pen_x = 0;
  double pen_y = 0;
  bool in_array = false;
  bool in_string = false;
  for (const Glyph& glyph : run.glyphs) {
    auto found = subset.new_glyph.find(glyph.id);
    const uint32_t id = found != subset.new_glyph.end() ? found->second : 0;
    const bool same_line = in_array && std::abs(glyph.y - pen_y) < 0.0005;
    if (!same_line) {
      if (in_string) content.push_back('>');
      if (in_array) content += "] TJ\n";
      content += "1 0 0 1 ";
      AppendNumbers(content, {glyph.x, glyph.y});
      content += "Tm [";
      in_array = true;
      in_string = false;
      pen_x = glyph.x;
      pen_y = glyph.y;
    }
    const double move = glyph.x - pen_x;
    if (std::abs(move) >= 0.0005) {
      const double adjust = std::round(-move * 1000.0 / run.size * 100.0) / 100.0;
      if (in_string) content.push_back('>');
      in_string = false;
      AppendNumber(content, adjust);
      pen_x -= adjust * run.size / 1000.0;
    }
    if (!in_string) content.push_back('<');
    in_string = true;
    AppendHex4(content, id);
    const int width = id < subset.widths.size() ? subset.widths[id] : 0;
    pen_x += width * run.size / 1000.0;
  }
  if (in_string) content.push_back('>');
  if (in_array) content += "] TJ\n";
  content += "ET\n";
}

Result<std::string> PdfWriter::Finish() {
  if (!supported()) {
    return Fail(ErrorCode::kInternal, "cannot embed the font " + unsupported_face_);
  }
  for (auto& use : fonts_) {
    std::vector<uint32_t> glyphs;
    glyphs.reserve(use->text_of_glyph.size());
    for (const auto& [glyph, chars] : use->text_of_glyph) glyphs.push_back(glyph);
    auto subset = SubsetFace(use->face.get(), glyphs);
    if (!subset) return std::unexpected(std::move(subset.error()));
    use->subset = std::move(*subset);
  }

  ObjectWriter file;
  const size_t catalog = file.Reserve();
  const size_t page_tree = file.Reserve();
  const size_t info = file.Reserve();
  const size_t resources = file.Reserve();
  std::string kids;
  for (const Page& current : pages_) {
    const size_t page_object = file.Reserve();
    const size_t contents = file.Reserve();
    kids += Ref(page_object) + " ";
    std::string content;
    for (const Piece& piece : current.pieces) {
      if (!piece.text) {
        content += piece.operators;
        continue;
      }
      AppendText(content, *piece.text, *fonts_[piece.text->font]->subset);
    }
    std::string page_dictionary = "<< /Type /Page /Parent " + Ref(page_tree) + " /MediaBox [0 0 ";
    AppendNumbers(page_dictionary, {current.width, current.height});
    page_dictionary += "] /Resources " + Ref(resources) + " /Contents " + Ref(contents) + " >>";
    file.Write(page_object, page_dictionary);
    const std::string compressed = ZlibCompress(content);
    file.IdentifyBy(compressed);
    file.WriteStream(contents, "/Filter /FlateDecode", compressed);
  }

  std::string font_resources = "<< /Font <<";
  for (size_t i = 0; i < fonts_.size(); ++i) {
    const FontUse& use = *fonts_[i];
    font_resources +=
        " /F" + std::to_string(i + 1) + " " + Ref(WriteFont(file, *use.subset, use.text_of_glyph));
  }
  font_resources += " >> >>";
  file.Write(resources, font_resources);
  file.Write(page_tree, "<< /Type /Pages /Kids [" + kids + "] /Count " +
                            std::to_string(pages_.size()) + " >>");
  file.Write(catalog, "<< /Type /Catalog /Pages " + Ref(page_tree) + " >>");
  const std::string date = PdfDate(metadata_.date);
  const std::string info_dictionary = "<< /Title " + TextString(metadata_.title) + " /Author " +
                                      TextString(metadata_.author) + " /Subject " +
                                      TextString(metadata_.subject) +
                                      " /Creator (contractd) /Producer (contractd) /CreationDate " +
                                      date + " /ModDate " + date + " >>";
  file.Write(info, info_dictionary);
  file.IdentifyBy(info_dictionary);
  return file.Finish(catalog, info);
}

}  // namespace esign::documents
