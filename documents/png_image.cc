#include "documents/png_image.h"

#include <algorithm>

namespace esign::documents {
namespace {

struct PngReader {
  std::string_view data;
  size_t offset = 0;
};

cairo_status_t ReadPng(void* closure, unsigned char* out, unsigned int length) {
  auto* reader = static_cast<PngReader*>(closure);
  if (reader->data.size() - reader->offset < length) return CAIRO_STATUS_READ_ERROR;
  std::copy_n(reader->data.data() + reader->offset, length, out);
  reader->offset += length;
  return CAIRO_STATUS_SUCCESS;
}

cairo_status_t AppendPng(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

uint32_t BigEndian32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

}  // namespace

std::optional<std::pair<uint32_t, uint32_t>> PngDimensions(std::string_view png) {
  static constexpr std::string_view kMagic = "\x89PNG\r\n\x1a\n";
  if (png.size() < 24 || !png.starts_with(kMagic) || png.substr(12, 4) != "IHDR") {
    return std::nullopt;
  }
  return std::pair{BigEndian32(png, 16), BigEndian32(png, 20)};
}

SurfacePtr DecodePng(std::string_view png) {
  PngReader reader{.data = png};
  return SurfacePtr(cairo_image_surface_create_from_png_stream(ReadPng, &reader));
}

std::optional<std::string> EncodePng(cairo_surface_t* surface) {
  std::string png;
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS ||
      cairo_surface_write_to_png_stream(surface, AppendPng, &png) != CAIRO_STATUS_SUCCESS) {
    return std::nullopt;
  }
  return png;
}

}  // namespace esign::documents
