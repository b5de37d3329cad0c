#include "documents/field_stamper.h"

#include <glib.h>
#include <qpdf/QPDFPageDocumentHelper.hh>

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <vector>

#include "documents/pdf_canvas.h"
#include "documents/pdf_page_frame.h"
#include "documents/qpdf_document.h"
#include "documents/signature_drawing.h"

namespace esign::documents {
namespace {

using Signatures = std::map<std::string, PreparedSignature, std::less<>>;

void Draw(cairo_t* cr, PangoContext* context, const FieldStamp& field, const Signatures& signatures,
          const RenderOptions& options) {
  const SignaturePlacement box{
      .x = field.box.x, .y = field.box.y, .width = field.box.width, .height = field.box.height};
  switch (field.type) {
    case PlacedFieldType::kSignature:
      DrawSignature(cr, context, box, signatures.find(field.participant_id)->second,
                    {.signature_families = options.signature_font_families,
                     .caption_families = options.font_families});
      return;
    case PlacedFieldType::kInitials:
      // The ink of a typed signature (signature_drawing.cc), at its largest size.
      DrawFittedText(cr, context, box, field.text,
                     {.families = options.signature_font_families,
                      .italic = true,
                      .max_size = 28,
                      .red = 0.05,
                      .green = 0.1,
                      .blue = 0.35});
      return;
    default:
      DrawFittedText(cr, context, box, field.text, {.families = options.font_families});
      return;
  }
}

// The stamps of every page that has fields, one page of a cairo PDF each, in page order.
Result<std::string> DrawStamps(const std::map<size_t, std::vector<const FieldStamp*>>& by_page,
                               const std::vector<PageFrame>& frames, const Signatures& signatures,
                               const RenderOptions& options) {
  const PageFrame& first = frames[by_page.begin()->first];
  auto canvas = PdfCanvas::Create({}, first.width(), first.height());
  if (!canvas) return std::unexpected(std::move(canvas.error()));
  bool started = false;
  for (const auto& [page, fields] : by_page) {
    if (started) (*canvas)->NextPage(frames[page].width(), frames[page].height());
    started = true;
    for (const FieldStamp* field : fields) {
      Draw((*canvas)->cr(), (*canvas)->context(), *field, signatures, options);
    }
  }
  return (*canvas)->Finish();
}

Result<std::string> Stamp(std::string_view pdf, std::span<const FieldStamp> fields,
                          const Signatures& signatures, const RenderOptions& options) {
  std::unique_ptr<QPDF> target = ReadPdf(pdf, "document");
  QPDFPageDocumentHelper target_pages(*target);
  target_pages.pushInheritedAttributesToPage();
  std::vector<QPDFPageObjectHelper> pages = target_pages.getAllPages();
  std::map<size_t, std::vector<const FieldStamp*>> by_page;
  for (const FieldStamp& field : fields) {
    if (field.box.page < 1 || static_cast<size_t>(field.box.page) > pages.size()) {
      return Fail(ErrorCode::kValidationFailed,
                  "the document has no page " + std::to_string(field.box.page));
    }
    by_page[static_cast<size_t>(field.box.page) - 1].push_back(&field);
  }
  if (by_page.empty()) return std::string(pdf);
  std::vector<PageFrame> frames;
  for (QPDFPageObjectHelper& page : pages) frames.push_back(FrameOf(page));

  auto stamps = DrawStamps(by_page, frames, signatures, options);
  if (!stamps) return std::unexpected(std::move(stamps.error()));
  std::unique_ptr<QPDF> drawn = ReadPdf(*stamps, "stamps");
  std::vector<QPDFPageObjectHelper> drawn_pages = QPDFPageDocumentHelper(*drawn).getAllPages();
  if (drawn_pages.size() != by_page.size()) {
    return Fail(ErrorCode::kInternal, "the stamps have " + std::to_string(drawn_pages.size()) +
                                          " pages for " + std::to_string(by_page.size()));
  }
  size_t next = 0;
  for (const auto& [index, unused] : by_page) {
    QPDFObjectHandle form = target->copyForeignObject(drawn_pages[next++].getFormXObjectForPage());
    // The page's resources may be shared with other pages: this page gets its own copy of the
    // dictionaries it adds to, the resources themselves stay shared.
    QPDFObjectHandle page = pages[index].getObjectHandle();
    QPDFObjectHandle resources = page.getKey("/Resources");
    resources =
        resources.isDictionary() ? resources.shallowCopy() : QPDFObjectHandle::newDictionary();
    QPDFObjectHandle xobjects = resources.getKey("/XObject");
    xobjects = xobjects.isDictionary() ? xobjects.shallowCopy() : QPDFObjectHandle::newDictionary();
    int suffix = 1;
    const std::string name = resources.getUniqueResourceName("/Stamp", suffix);
    xobjects.replaceKey(name, form);
    resources.replaceKey("/XObject", xobjects);
    page.replaceKey("/Resources", resources);
    pages[index].addPageContents(
        target->newStream("q " + frames[index].Matrix() + " cm " + name + " Do Q\n"), false);
  }
  return WritePdf(*target);
}

}  // namespace

Result<std::string> StampFields(std::string_view pdf, std::span<const FieldStamp> fields,
                                std::span<const SignatureAppearance> signatures,
                                const RenderOptions& options) {
  Signatures prepared;
  for (const SignatureAppearance& appearance : signatures) {
    auto signature = PrepareSignature(appearance);
    if (!signature) return std::unexpected(std::move(signature.error()));
    prepared.insert_or_assign(appearance.participant_id, std::move(*signature));
  }
  for (const FieldStamp& field : fields) {
    if (!(field.box.width > 0 && field.box.height > 0)) {
      return Fail(ErrorCode::kValidationFailed, "a field's box must not be empty");
    }
    if (field.type == PlacedFieldType::kSignature && !prepared.contains(field.participant_id)) {
      return Fail(ErrorCode::kValidationFailed,
                  "participant " + field.participant_id + " has no signature to stamp");
    }
  }
  try {
    return Stamp(pdf, fields, prepared, options);
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kValidationFailed,
                std::string("cannot stamp the document: ") + e.what());
  }
}

std::string Initials(std::string_view name) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (at < name.size()) {
    const size_t start = name.find_first_not_of(" \t\n", at);
    if (start == std::string_view::npos) break;
    const size_t end = std::min(name.find_first_of(" \t\n", start), name.size());
    words.push_back(name.substr(start, end - start));
    at = end;
  }
  std::string out;
  const auto initial = [&](std::string_view word) {
    if (!g_utf8_validate(word.data(), static_cast<gssize>(word.size()), nullptr)) return;
    char letter[8] = {};
    const gunichar upper = g_unichar_toupper(g_utf8_get_char(word.data()));
    out.append(letter, static_cast<size_t>(g_unichar_to_utf8(upper, letter)));
  };
  if (!words.empty()) initial(words.front());
  if (words.size() > 1) initial(words.back());
  return out;
}

std::string SigningDate(std::string_view rfc3339) {
  const bool dated = rfc3339.size() >= 10 && rfc3339[4] == '-' && rfc3339[7] == '-' &&
                     std::all_of(rfc3339.begin(), rfc3339.begin() + 4,
                                 [](char c) { return c >= '0' && c <= '9'; });
  return std::string(dated ? rfc3339.substr(0, 10) : rfc3339);
}

}  // namespace esign::documents
