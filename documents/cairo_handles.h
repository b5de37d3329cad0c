// Owning handles for the cairo, pango and GObject values the PDF drawing code creates. Internal
// to documents/ (includes cairo and pango, which the library links privately).
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include <memory>

namespace esign::documents {

// A unique_ptr deleter calling the C library's own free function.
template <auto kFree>
struct FreeWith {
  template <class T>
  void operator()(T* value) const {
    kFree(value);
  }
};

template <class T>
using GPtr = std::unique_ptr<T, FreeWith<g_object_unref>>;
using SurfacePtr = std::unique_ptr<cairo_surface_t, FreeWith<cairo_surface_destroy>>;
using CairoPtr = std::unique_ptr<cairo_t, FreeWith<cairo_destroy>>;
using FontDescriptionPtr =
    std::unique_ptr<PangoFontDescription, FreeWith<pango_font_description_free>>;
using FontOptionsPtr = std::unique_ptr<cairo_font_options_t, FreeWith<cairo_font_options_destroy>>;
using AttrListPtr = std::unique_ptr<PangoAttrList, FreeWith<pango_attr_list_unref>>;

}  // namespace esign::documents
