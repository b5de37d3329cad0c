#include "documents/field_stamper.h"

#include <glib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
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

// The canvas page as a form XObject of `target`: its content, resources and group.
qpdf_oh FormOf(const QpdfReader& target, const QpdfReader& drawn, qpdf_oh canvas_page,
               const PageFrame& frame) {
  qpdf_data t = target.get();
  qpdf_data d = drawn.get();
  unsigned char* content = nullptr;
  size_t length = 0;
  qpdf_oh_get_page_content_data(d, canvas_page, &content, &length);
  const qpdf_oh form = NewStream(
      t, std::string_view(reinterpret_cast<const char*>(content), content != nullptr ? length : 0));
  std::free(content);
  const qpdf_oh dict = qpdf_oh_get_dict(t, form);
  qpdf_oh_replace_key(t, dict, "/Type", qpdf_oh_new_name(t, "/XObject"));
  qpdf_oh_replace_key(t, dict, "/Subtype", qpdf_oh_new_name(t, "/Form"));
  qpdf_oh_replace_key(
      t, dict, "/BBox",
      qpdf_oh_parse(
          t, ("[0 0 " + PdfNumber(frame.width()) + " " + PdfNumber(frame.height()) + "]").c_str()));
  for (const char* key : {"/Resources", "/Group"}) {
    if (qpdf_oh_has_key(d, canvas_page, key) != QPDF_FALSE) {
      qpdf_oh_replace_key(t, dict, key,
                          CopyForeign(target, drawn, qpdf_oh_get_key(d, canvas_page, key)));
    }
  }
  return form;
}

Result<std::string> Stamp(std::string_view pdf, std::span<const FieldStamp> fields,
                          const Signatures& signatures, const RenderOptions& options,
                          PageContent content) {
  QpdfReader target;
  qpdf_data t = target.get();
  if (!target.Read(pdf)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + target.ErrorText());
  }
  qpdf_push_inherited_attributes_to_page(t);
  const int count = qpdf_get_num_pages(t);
  if (target.Failed() || count < 0) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + target.ErrorText());
  }
  std::map<size_t, std::vector<const FieldStamp*>> by_page;
  for (const FieldStamp& field : fields) {
    if (field.box.page < 1 || field.box.page > count) {
      return Fail(ErrorCode::kValidationFailed,
                  "the document has no page " + std::to_string(field.box.page));
    }
    by_page[static_cast<size_t>(field.box.page) - 1].push_back(&field);
  }
  if (by_page.empty()) return std::string(pdf);
  std::vector<PageFrame> frames;
  frames.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    frames.push_back(FrameOf(target, qpdf_get_page_n(t, static_cast<size_t>(i))));
  }

  auto stamps = DrawStamps(by_page, frames, signatures, options);
  if (!stamps) return std::unexpected(std::move(stamps.error()));
  QpdfReader drawn;
  if (!drawn.Read(*stamps) || qpdf_get_num_pages(drawn.get()) != static_cast<int>(by_page.size())) {
    return Fail(ErrorCode::kInternal, "unreadable stamps: " + drawn.ErrorText());
  }
  size_t next = 0;
  for (const auto& [index, unused] : by_page) {
    const qpdf_oh form = FormOf(target, drawn, qpdf_get_page_n(drawn.get(), next++), frames[index]);
    // The page's resources may be shared with other pages: this page gets its own copy of the
    // dictionaries it adds to; what they hold stays shared.
    const qpdf_oh page = qpdf_get_page_n(t, index);
    const qpdf_oh resources = ShallowCopy(t, qpdf_oh_get_key(t, page, "/Resources"));
    const qpdf_oh xobjects = ShallowCopy(t, qpdf_oh_get_key(t, resources, "/XObject"));
    std::string name;
    for (int suffix = 1; name.empty() || qpdf_oh_has_key(t, xobjects, name.c_str()); ++suffix) {
      name = "/Stamp" + std::to_string(suffix);
    }
    qpdf_oh_replace_key(t, xobjects, name.c_str(), form);
    qpdf_oh_replace_key(t, resources, "/XObject", xobjects);
    qpdf_oh_replace_key(t, page, "/Resources", resources);
    std::string stamp = "q " + frames[index].Matrix() + " cm " + name + " Do Q\n";
    if (content == PageContent::kMayChangeState) {
      AddPageContent(t, page, NewStream(t, "q\n"), true);
      stamp.insert(0, "Q\n");
    }
    AddPageContent(t, page, NewStream(t, stamp), false);
  }
  if (target.Failed() || drawn.Failed()) {
    return Fail(ErrorCode::kInternal,
                "cannot stamp the document: " + (target.Failed() ? target : drawn).ErrorText());
  }
  return WritePdf(target);
}

}  // namespace

Result<std::string> StampFields(std::string_view pdf, std::span<const FieldStamp> fields,
                                std::span<const SignatureAppearance> signatures,
                                const RenderOptions& options, PageContent content) {
  Signatures prepared;
  for (const SignatureAppearance& appearance : signatures) {
    auto signature = PrepareSignature(appearance);
    if (!signature) return std::unexpected(std::move(signature.error()));
    prepared.insert_or_assign(appearance.participant_id, std::move(*signature));
  }
  for (const FieldStamp& field : fields) {
    const PageRect& box = field.box;
    if (!(box.width > 0 && box.height > 0) || !std::isfinite(box.x) || !std::isfinite(box.y) ||
        !std::isfinite(box.width) || !std::isfinite(box.height)) {
      return Fail(ErrorCode::kValidationFailed, "a field's box must be finite and not empty");
    }
    if (field.type == PlacedFieldType::kSignature && !prepared.contains(field.participant_id)) {
      return Fail(ErrorCode::kValidationFailed,
                  "participant " + field.participant_id + " has no signature to stamp");
    }
  }
  try {
    return Stamp(pdf, fields, prepared, options, content);
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
