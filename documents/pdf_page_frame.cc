#include "documents/pdf_page_frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

PageFrame FrameOf(QPDFPageObjectHelper& page) {
  PageFrame frame;
  QPDFObjectHandle box = page.getCropBox();
  if (box.isRectangle()) {
    const QPDFObjectHandle::Rectangle r = box.getArrayAsRectangle();
    frame.llx = std::min(r.llx, r.urx);
    frame.urx = std::max(r.llx, r.urx);
    frame.lly = std::min(r.lly, r.ury);
    frame.ury = std::max(r.lly, r.ury);
  }
  QPDFObjectHandle rotate = page.getAttribute("/Rotate", false);
  if (rotate.isInteger()) {
    const long long degrees = ((rotate.getIntValue() % 360) + 360) % 360;
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
