// The words of a PDF as poppler's pdftotext -bbox finds them, with their pages and boxes: for the
// tests that check where something was drawn (a signature box's label, the text above it).
#pragma once

#include <string>
#include <vector>

namespace esign::testing {

struct PdfWord {
  int page = 0;                                       // 1-based
  double x_min = 0, y_min = 0, x_max = 0, y_max = 0;  // points from the page's top left
  std::string text;
};

// Every word of the PDF at `path`, in pdftotext's order; empty when pdftotext fails.
std::vector<PdfWord> PdfWords(const std::string& path);

}  // namespace esign::testing
