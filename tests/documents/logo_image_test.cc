#include "documents/logo_image.h"

#include <cairo.h>
#include <gtest/gtest.h>

// clang-format off: jpeglib.h needs stdio's FILE and size_t declared first.
#include <jpeglib.h>
#include <cstdio>
// clang-format on

#include <cstdlib>
#include <utility>
#include <vector>

#include "documents/cairo_handles.h"
#include "documents/png_image.h"

namespace esign::documents {
namespace {

std::string Png(int width, int height) {
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height));
  CairoPtr cr(cairo_create(surface.get()));
  cairo_set_source_rgb(cr.get(), 0.12, 0.37, 0.75);
  cairo_paint(cr.get());
  cr.reset();
  return *EncodePng(surface.get());
}

// A JPEG of one colour, written with libjpeg.
std::string Jpeg(int width, int height) {
  jpeg_compress_struct info{};
  jpeg_error_mgr error{};
  info.err = jpeg_std_error(&error);
  jpeg_create_compress(&info);
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&info, &buffer, &size);
  info.image_width = static_cast<JDIMENSION>(width);
  info.image_height = static_cast<JDIMENSION>(height);
  info.input_components = 3;
  info.in_color_space = JCS_RGB;
  jpeg_set_defaults(&info);
  jpeg_start_compress(&info, TRUE);
  std::vector<unsigned char> row(static_cast<size_t>(width) * 3);
  for (size_t i = 0; i < row.size(); i += 3) {
    row[i] = 0x1f;
    row[i + 1] = 0x5f;
    row[i + 2] = 0xbf;
  }
  while (info.next_scanline < info.image_height) {
    JSAMPROW rows[] = {row.data()};
    jpeg_write_scanlines(&info, rows, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  std::string bytes(reinterpret_cast<const char*>(buffer), size);
  std::free(buffer);
  return bytes;
}

// The width and height of the PNG as cairo decodes it.
std::pair<int, int> SidesOf(const std::string& png) {
  SurfacePtr surface = DecodePng(png);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) return {0, 0};
  return {cairo_image_surface_get_width(surface.get()),
          cairo_image_surface_get_height(surface.get())};
}

std::string Field(const Result<std::string>& result) {
  return result ? "" : result.error().details.front().field;
}

TEST(LogoImageTest, PngIsWrittenAgainWithoutWhatFollowedIt) {
  const std::string png = Png(300, 100);
  auto normalized = NormalizedLogo(png + "<script>alert(1)</script>", "image/png");
  ASSERT_TRUE(normalized) << normalized.error().message;
  EXPECT_EQ(normalized->find("<script>"), std::string::npos);
  EXPECT_EQ(SidesOf(*normalized), std::make_pair(300, 100));
}

TEST(LogoImageTest, JpegBecomesPng) {
  const std::string jpeg = Jpeg(120, 40);
  auto normalized = NormalizedLogo(jpeg, "image/jpeg");
  ASSERT_TRUE(normalized) << normalized.error().message;
  EXPECT_EQ(SidesOf(*normalized), std::make_pair(120, 40));
}

TEST(LogoImageTest, RefusesTooLargeWrongOrDamagedImages) {
  EXPECT_EQ(Field(NormalizedLogo(Png(1025, 10), "image/png")), "logo");
  EXPECT_EQ(Field(NormalizedLogo(Png(10, 1025), "image/png")), "logo");
  EXPECT_TRUE(NormalizedLogo(Png(1024, 1024), "image/png"));
  auto huge = NormalizedLogo(std::string(kMaxLogoBytes + 1, 'x'), "image/png");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().code, ErrorCode::kPayloadTooLarge);
  EXPECT_EQ(Field(NormalizedLogo("<svg onload=alert(1)/>", "image/svg+xml")), "logo");
  EXPECT_EQ(Field(NormalizedLogo(Png(10, 10), "image/jpeg")), "logo");
  EXPECT_EQ(Field(NormalizedLogo("\xff\xd8\xff\xe0 not really", "image/jpeg")), "logo");
  const std::string png = Png(50, 50);
  EXPECT_EQ(Field(NormalizedLogo(png.substr(0, png.size() / 2), "image/png")), "logo");
  EXPECT_EQ(Field(NormalizedLogo(Jpeg(2000, 8), "image/jpeg")), "logo");
  EXPECT_EQ(Field(NormalizedLogo(Jpeg(40, 40).substr(0, 200), "image/jpeg")), "logo");
}

}  // namespace
}  // namespace esign::documents
