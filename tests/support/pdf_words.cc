#include "tests/support/pdf_words.h"

#include <cstdlib>
#include <cstring>

#include "tests/support/shell.h"

namespace esign::testing {

std::vector<PdfWord> PdfWords(const std::string& path) {
  // <page ...> opens each page; each <word xMin=".." yMin=".." xMax=".." yMax="..">text</word>.
  const std::string html = RunShell("pdftotext -bbox -enc UTF-8 '" + path + "' -").out;
  const auto number = [&](size_t from, const char* name) {
    const size_t start = html.find(std::string(name) + "=\"", from) + std::strlen(name) + 2;
    return std::strtod(html.c_str() + start, nullptr);
  };
  std::vector<PdfWord> words;
  int page = 0;
  size_t at = 0;
  for (;;) {
    const size_t next_page = html.find("<page ", at);
    const size_t next_word = html.find("<word ", at);
    if (next_word == std::string::npos) break;
    if (next_page < next_word) {
      ++page;
      at = next_page + 1;
      continue;
    }
    PdfWord word{.page = page,
                 .x_min = number(next_word, "xMin"),
                 .y_min = number(next_word, "yMin"),
                 .x_max = number(next_word, "xMax"),
                 .y_max = number(next_word, "yMax")};
    const size_t open_end = html.find('>', next_word) + 1;
    word.text = html.substr(open_end, html.find("</word>", open_end) - open_end);
    words.push_back(std::move(word));
    at = open_end;
  }
  return words;
}

}  // namespace esign::testing
