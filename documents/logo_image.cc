#include "documents/logo_image.h"

// clang-format off: jpeglib.h needs stdio's FILE and size_t declared first.
#include <jpeglib.h>
#include <cstdio>
// clang-format on

#include <csetjmp>
#include <cstdint>

#include "documents/cairo_handles.h"
#include "documents/png_image.h"

namespace esign::documents {
namespace {

std::unexpected<Error> Refused(std::string message) {
  return Fail(ErrorCode::kValidationFailed, std::move(message), "logo",
              "a PNG or JPEG image of at most 1024 x 1024 pixels and 256 KiB");
}

bool WithinSides(long width, long height) {
  return width >= 1 && height >= 1 && width <= kMaxLogoSide && height <= kMaxLogoSide;
}

// libjpeg reports a damaged file by calling error_exit, which must not return: it jumps back.
struct JpegError {
  jpeg_error_mgr manager;
  std::jmp_buf back;
};

void JumpBack(j_common_ptr info) { std::longjmp(reinterpret_cast<JpegError*>(info->err)->back, 1); }
void Quiet(j_common_ptr) {}

// Decoded into an opaque cairo surface; nullptr for a damaged JPEG or one too large.
// NOLINTNEXTLINE(cert-err52-cpp): libjpeg's only way to stop decoding is longjmp.
SurfacePtr DecodeJpeg(std::string_view bytes, bool& too_large) {
  jpeg_decompress_struct info{};
  JpegError error{};
  info.err = jpeg_std_error(&error.manager);
  error.manager.error_exit = JumpBack;
  error.manager.output_message = Quiet;
  // Nothing with a destructor lives between here and a jump: the surface is a plain pointer,
  // destroyed by hand; volatile, as it is set after setjmp and read after the jump back.
  cairo_surface_t* volatile surface = nullptr;
  if (setjmp(error.back) != 0) {
    jpeg_destroy_decompress(&info);
    if (surface != nullptr) cairo_surface_destroy(surface);
    return nullptr;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()),
               static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&info, TRUE);
  if (!WithinSides(static_cast<long>(info.image_width), static_cast<long>(info.image_height))) {
    too_large = true;
    jpeg_destroy_decompress(&info);
    return nullptr;
  }
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  const int width = static_cast<int>(info.output_width);
  const int height = static_cast<int>(info.output_height);
  surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  cairo_surface_flush(surface);
  unsigned char* pixels = cairo_image_surface_get_data(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  // From libjpeg's own pool, freed by jpeg_destroy_decompress even after a jump.
  JSAMPARRAY row = (*info.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&info), JPOOL_IMAGE,
                                             static_cast<JDIMENSION>(width) * 3, 1);
  while (info.output_scanline < info.output_height) {
    const int y = static_cast<int>(info.output_scanline);
    jpeg_read_scanlines(&info, row, 1);
    auto* out = reinterpret_cast<uint32_t*>(pixels + static_cast<ptrdiff_t>(y) * stride);
    for (int x = 0; x < width; ++x) {
      const unsigned char* rgb = &row[0][static_cast<size_t>(x) * 3];
      out[x] = 0xff000000u | (uint32_t{rgb[0]} << 16) | (uint32_t{rgb[1]} << 8) | rgb[2];
    }
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  cairo_surface_mark_dirty(surface);
  return SurfacePtr(surface);
}

}  // namespace

Result<std::string> NormalizedLogo(std::string_view bytes, std::string_view media_type) {
  if (bytes.size() > kMaxLogoBytes) {
    return Fail(ErrorCode::kPayloadTooLarge, "a logo is at most 256 KiB", "logo",
                std::to_string(bytes.size()) + " bytes");
  }
  SurfacePtr surface;
  if (media_type == "image/png") {
    const auto sides = PngDimensions(bytes);
    if (!sides) return Refused("the logo is not a PNG image");
    if (!WithinSides(sides->first, sides->second)) {
      return Refused("the logo is larger than 1024 x 1024 pixels");
    }
    surface = DecodePng(bytes);
  } else if (media_type == "image/jpeg") {
    bool too_large = false;
    surface = DecodeJpeg(bytes, too_large);
    if (too_large) return Refused("the logo is larger than 1024 x 1024 pixels");
    if (!surface) return Refused("the logo is not a JPEG image");
  } else {
    return Refused("a logo is image/png or image/jpeg");
  }
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    return Refused("the logo image is damaged");
  }
  auto png = EncodePng(surface.get());
  if (!png) return Fail(ErrorCode::kInternal, "the logo could not be written as PNG");
  return std::move(*png);
}

}  // namespace esign::documents
