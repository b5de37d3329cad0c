// A page of a PDF as pixels, drawn by poppler, to look for ink where something should (or
// should not) be drawn.
#pragma once

#include <cairo.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "domain/placed_fields.h"
#include "tests/documents/pdf_fixtures.h"

namespace esign::pdf_test {

// A page drawn by poppler (pdftoppm), by default at 72 dpi: one pixel per point of the displayed
// frame.
class PageImage {
 public:
  // Page `page` (1-based) of the PDF at `path`, drawn at `dpi`.
  PageImage(const std::string& path, int page, int dpi = 72) {
    const std::string prefix = path + ".page" + std::to_string(page);
    const auto drawn = Run("pdftoppm -r " + std::to_string(dpi) + " -cropbox -png -singlefile -f " +
                           std::to_string(page) + " -l " + std::to_string(page) + " '" + path +
                           "' '" + prefix + "'");
    EXPECT_EQ(drawn.exit_code, 0) << drawn.out;
    surface_ = cairo_image_surface_create_from_png((prefix + ".png").c_str());
    std::remove((prefix + ".png").c_str());
  }
  ~PageImage() { cairo_surface_destroy(surface_); }
  PageImage(const PageImage&) = delete;
  PageImage& operator=(const PageImage&) = delete;

  int width() const { return cairo_image_surface_get_width(surface_); }
  int height() const { return cairo_image_surface_get_height(surface_); }
  // 0 black .. 255 white: the mean of the channels.
  int Gray(int x, int y) const {
    const unsigned char* row =
        cairo_image_surface_get_data(surface_) + y * cairo_image_surface_get_stride(surface_);
    const uint32_t pixel = reinterpret_cast<const uint32_t*>(row)[x];
    return static_cast<int>(((pixel >> 16) & 0xff) + ((pixel >> 8) & 0xff) + (pixel & 0xff)) / 3;
  }
  bool Differs(const PageImage& other, int x, int y) const {
    return Gray(x, y) != other.Gray(x, y);
  }
  // Pixels darker than mid-gray whose square lies wholly inside the box.
  int InkInside(const PageRect& box) const {
    int ink = 0;
    for (int y = static_cast<int>(std::ceil(box.y)); y + 1 <= box.y + box.height && y < height();
         ++y) {
      for (int x = static_cast<int>(std::ceil(box.x)); x + 1 <= box.x + box.width && x < width();
           ++x) {
        if (Gray(x, y) < 128) ++ink;
      }
    }
    return ink;
  }

 private:
  cairo_surface_t* surface_ = nullptr;
};

}  // namespace esign::pdf_test
