#include "documents/pdf_page_frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace esign::documents {

double PageFrame::width() const { return rotate % 180 == 0 ? urx - llx : ury - lly; }
double PageFrame::height() const { return rotate % 180 == 0 ? ury - lly : urx - llx; }

std::string PageFrame::Matrix() const {
  // A canvas point (u, h - v) stands for the displayed point (u, v); each rotation turns the
  // displayed frame back onto the crop box.
  double m[6] = {1, 0, 0, 1, llx, lly};
  switch (rotate) {
    case 90:
      m[0] = 0, m[1] = 1, m[2] = -1, m[3] = 0, m[4] = urx, m[5] = lly;
      break;
    case 180:
      m[0] = -1, m[1] = 0, m[2] = 0, m[3] = -1, m[4] = urx, m[5] = ury;
      break;
    case 270:
      m[0] = 0, m[1] = -1, m[2] = 1, m[3] = 0, m[4] = llx, m[5] = ury;
      break;
    default:
      break;
  }
  std::string out;
  for (const double value : m) out += PdfNumber(value) + " ";
  out.pop_back();
  return out;
}

bool PdfBox::valid() const {
  return std::isfinite(llx) && std::isfinite(lly) && std::isfinite(urx) && std::isfinite(ury) &&
         width() > 0 && height() > 0;
}

PageFrame FrameFromBoxes(const PdfBox& media, const std::optional<PdfBox>& crop, int64_t rotate) {
  PdfBox shown = media;
  if (crop) {
    const PdfBox clipped{std::max(crop->llx, media.llx), std::max(crop->lly, media.lly),
                         std::min(crop->urx, media.urx), std::min(crop->ury, media.ury)};
    if (clipped.valid()) shown = clipped;
  }
  const int64_t degrees = ((rotate % 360) + 360) % 360;
  return PageFrame{shown.llx, shown.lly, shown.urx, shown.ury,
                   degrees % 90 == 0 ? static_cast<int>(degrees) : 0};
}

namespace {

std::optional<PdfBox> BoxAt(const QpdfReader& pdf, qpdf_oh page, const char* key) {
  qpdf_data q = pdf.get();
  const std::vector<qpdf_oh> corners = pdf.Items(qpdf_oh_get_key(q, page, key));
  if (corners.size() != 4 || !std::all_of(corners.begin(), corners.end(), [&](qpdf_oh value) {
        return qpdf_oh_is_number(q, value) != QPDF_FALSE;
      })) {
    return std::nullopt;
  }
  double r[4];
  for (size_t i = 0; i < 4; ++i) r[i] = qpdf_oh_get_numeric_value(q, corners[i]);
  return PdfBox{std::min(r[0], r[2]), std::min(r[1], r[3]), std::max(r[0], r[2]),
                std::max(r[1], r[3])};
}

}  // namespace

PageFrame FrameOf(const QpdfReader& pdf, qpdf_oh page) {
  qpdf_data q = pdf.get();
  const qpdf_oh rotate = qpdf_oh_get_key(q, page, "/Rotate");
  return FrameFromBoxes(
      BoxAt(pdf, page, "/MediaBox").value_or(PdfBox{}), BoxAt(pdf, page, "/CropBox"),
      qpdf_oh_is_integer(q, rotate) != QPDF_FALSE ? qpdf_oh_get_int_value(q, rotate) : 0);
}

PageRect Displayed(const PageFrame& frame, const PdfBox& box, int64_t page) {
  const double crop_width = frame.urx - frame.llx;
  const double crop_height = frame.ury - frame.lly;
  const auto map = [&](double x, double y) -> std::pair<double, double> {
    const double u = x - frame.llx, v = y - frame.lly;
    switch (frame.rotate) {
      case 90:
        return {v, u};
      case 180:
        return {crop_width - u, v};
      case 270:
        return {crop_height - v, crop_width - u};
      default:
        return {u, crop_height - v};
    }
  };
  auto [x1, y1] = map(box.llx, box.lly);
  auto [x2, y2] = map(box.urx, box.ury);
  return {.page = page,
          .x = std::min(x1, x2),
          .y = std::min(y1, y2),
          .width = std::abs(x2 - x1),
          .height = std::abs(y2 - y1)};
}

std::string PdfNumber(double value) {
  if (!std::isfinite(value)) return "0";
  char text[64];
  std::snprintf(text, sizeof text, "%.4f", value);
  std::string out(text);
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

std::string CanvasRect(const PageFrame& frame, const PageRect& box) {
  return PdfNumber(box.x) + " " + PdfNumber(frame.height() - box.y - box.height) + " " +
         PdfNumber(box.width) + " " + PdfNumber(box.height);
}

}  // namespace esign::documents
