#include "documents/pdf_page_frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

PageFrame FrameOf(const QpdfReader& pdf, qpdf_oh page) {
  qpdf_data q = pdf.get();
  PageFrame frame;
  qpdf_oh box = qpdf_oh_get_key(q, page, "/CropBox");
  if (qpdf_oh_is_array(q, box) == QPDF_FALSE) box = qpdf_oh_get_key(q, page, "/MediaBox");
  const std::vector<qpdf_oh> corners = pdf.Items(box);
  if (corners.size() == 4 && std::all_of(corners.begin(), corners.end(), [&](qpdf_oh value) {
        return qpdf_oh_is_number(q, value) != QPDF_FALSE;
      })) {
    double r[4];
    for (size_t i = 0; i < 4; ++i) r[i] = qpdf_oh_get_numeric_value(q, corners[i]);
    frame.llx = std::min(r[0], r[2]);
    frame.urx = std::max(r[0], r[2]);
    frame.lly = std::min(r[1], r[3]);
    frame.ury = std::max(r[1], r[3]);
  }
  const qpdf_oh rotate = qpdf_oh_get_key(q, page, "/Rotate");
  if (qpdf_oh_is_integer(q, rotate) != QPDF_FALSE) {
    const long long degrees = ((qpdf_oh_get_int_value(q, rotate) % 360) + 360) % 360;
    frame.rotate = degrees % 90 == 0 ? static_cast<int>(degrees) : 0;
  }
  return frame;
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
