#include "documents/pdf_canvas.h"

#include <cairo-pdf.h>

#include <pango/pangocairo.h>
#include <algorithm>
#include <string>
#include <unordered_map>

namespace esign::documents {
namespace {

// Font maps cache fonts and are not safe to share between threads: one per thread, kept for the
// thread's life because building one costs a fontconfig scan. The context on it is kept too: the
// layouts shaped on it stay valid as long as its font options and matrix (the identity) do not
// change, which every canvas of the thread keeps so.
struct ThreadText {
  GPtr<PangoFontMap> font_map{pango_cairo_font_map_new()};
  GPtr<PangoContext> context{NewContext(font_map.get())};
  std::unordered_map<std::string, GPtr<PangoLayout>> shared_layouts;  // by SharedLayoutKey
  bool updated_for_pdf = false;  // pango_cairo_update_context has seen a PDF surface

  static PangoContext* NewContext(PangoFontMap* font_map) {
    PangoContext* context = pango_font_map_create_context(font_map);
    FontOptionsPtr font_options(cairo_font_options_create());
    cairo_font_options_set_hint_metrics(font_options.get(), CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(font_options.get(), CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(context, font_options.get());
    return context;
  }
};

ThreadText& ThisThreadText() {
  thread_local ThreadText text;
  return text;
}

std::string SharedLayoutKey(const std::string& families, double size, double width, bool bold,
                            bool ligatures, PangoAlignment alignment, const std::string& text) {
  std::string key = families;
  key += '\0';
  key += std::to_string(size);
  key += '\0';
  key += std::to_string(width);
  key += '\0';
  key += bold ? 'b' : 'r';
  key += ligatures ? 'l' : 'n';
  key += '\0';
  key += std::to_string(static_cast<int>(alignment));
  key += '\0';
  key += text;
  return key;
}

cairo_status_t Discard(void* /*closure*/, const unsigned char* /*data*/, unsigned int /*length*/) {
  return CAIRO_STATUS_SUCCESS;
}

cairo_status_t AppendToString(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

GPtr<PangoLayout> NewTextLayout(PangoContext* context, const std::string& families, double size,
                                double width, bool bold, bool ligatures) {
  GPtr<PangoLayout> layout(pango_layout_new(context));
  FontDescriptionPtr desc(pango_font_description_from_string(families.c_str()));
  pango_font_description_set_absolute_size(desc.get(), size * PANGO_SCALE);
  pango_font_description_set_weight(desc.get(), bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description(layout.get(), desc.get());
  pango_layout_set_width(layout.get(), static_cast<int>(width * PANGO_SCALE));
  pango_layout_set_wrap(layout.get(), PANGO_WRAP_WORD_CHAR);
  if (ligatures) return layout;
  AttrListPtr attributes(pango_attr_list_new());
  pango_attr_list_insert(attributes.get(), pango_attr_font_features_new(kNoLigatures));
  pango_layout_set_attributes(layout.get(), attributes.get());
  return layout;
}

GPtr<PangoLayout> SharedTextLayout(PangoContext* context, const std::string& families, double size,
                                   double width, bool bold, bool ligatures,
                                   PangoAlignment alignment, const std::string& text) {
  ThreadText& thread = ThisThreadText();
  const auto make = [&] {
    GPtr<PangoLayout> layout = NewTextLayout(context, families, size, width, bold, ligatures);
    pango_layout_set_alignment(layout.get(), alignment);
    pango_layout_set_text(layout.get(), text.c_str(), static_cast<int>(text.size()));
    return layout;
  };
  // Only layouts of this thread's context may be shared.
  if (context != thread.context.get()) return make();
  std::string key = SharedLayoutKey(families, size, width, bold, ligatures, alignment, text);
  auto found = thread.shared_layouts.find(key);
  if (found == thread.shared_layouts.end()) {
    if (thread.shared_layouts.size() >= kSharedLayoutsPerThread) thread.shared_layouts.clear();
    found = thread.shared_layouts.emplace(std::move(key), make()).first;
  }
  return GPtr<PangoLayout>(PANGO_LAYOUT(g_object_ref(found->second.get())));
}

double LayoutHeight(PangoLayout* layout) {
  int w = 0;
  int h = 0;
  pango_layout_get_size(layout, &w, &h);
  return static_cast<double>(h) / PANGO_SCALE;
}

PangoContext* ThisThreadPangoContext() {
  ThreadText& text = ThisThreadText();
  if (!text.updated_for_pdf) {
    // What a canvas does to the context, once: its font options and matrix as a PDF surface sets
    // them, so text laid out for a writer is laid out as for a canvas.
    SurfacePtr surface(cairo_pdf_surface_create_for_stream(Discard, nullptr, kA4Width, kA4Height));
    CairoPtr cr(cairo_create(surface.get()));
    pango_cairo_update_context(cr.get(), text.context.get());
    text.updated_for_pdf = true;
  }
  return text.context.get();
}

Result<std::unique_ptr<PdfCanvas>> PdfCanvas::Create(const PdfMetadata& metadata, double width,
                                                     double height) {
  std::unique_ptr<PdfCanvas> canvas(new PdfCanvas());
  canvas->surface_.reset(
      cairo_pdf_surface_create_for_stream(AppendToString, &canvas->bytes_, width, height));
  cairo_surface_t* surface = canvas->surface_.get();
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    return Fail(ErrorCode::kInternal, "cannot create the PDF surface");
  }
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, metadata.date.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, metadata.date.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, metadata.title.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, metadata.author.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "contractd");
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, metadata.subject.c_str());

  canvas->cr_.reset(cairo_create(surface));
  canvas->context_ = ThisThreadText().context.get();
  // Every canvas has the identity matrix and the same surface type, so this changes nothing after
  // the thread's first canvas and the shared layouts stay valid.
  pango_cairo_update_context(canvas->cr_.get(), canvas->context_);
  ThisThreadText().updated_for_pdf = true;
  return canvas;
}

void PdfCanvas::NextPage(double width, double height) {
  cairo_show_page(cr_.get());
  cairo_pdf_surface_set_size(surface_.get(), width, height);
}

Result<std::string> PdfCanvas::Finish() {
  cr_.reset();
  cairo_surface_finish(surface_.get());
  if (cairo_surface_status(surface_.get()) != CAIRO_STATUS_SUCCESS) {
    return Fail(ErrorCode::kInternal,
                std::string("PDF rendering failed: ") +
                    cairo_status_to_string(cairo_surface_status(surface_.get())));
  }
  return std::move(bytes_);
}

double TallestLayout(const std::vector<PangoLayout*>& row) {
  double height = 0;
  for (PangoLayout* cell : row) height = std::max(height, LayoutHeight(cell));
  return height;
}

void PaintLayout(cairo_t* cr, double x, double y, PangoLayout* layout) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, x, y);
  pango_cairo_show_layout(cr, layout);
}

void PaintRule(cairo_t* cr, double x, double y, double width, double gray, double line_width) {
  cairo_set_source_rgb(cr, gray, gray, gray);
  cairo_set_line_width(cr, line_width);
  cairo_move_to(cr, x, y);
  cairo_line_to(cr, x + width, y);
  cairo_stroke(cr);
}

void PaintRect(cairo_t* cr, double x, double y, double width, double height, double gray, bool fill,
               double line_width) {
  cairo_set_source_rgb(cr, gray, gray, gray);
  cairo_rectangle(cr, x, y, width, height);
  if (fill) {
    cairo_fill(cr);
  } else {
    cairo_set_line_width(cr, line_width);
    cairo_stroke(cr);
  }
}

}  // namespace esign::documents
