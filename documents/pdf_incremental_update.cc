#include "documents/pdf_incremental_update.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace esign::documents {

std::optional<long long> LastStartXref(std::string_view pdf) {
  const size_t at = pdf.rfind("startxref");
  if (at == std::string_view::npos) return std::nullopt;
  size_t i = at + 9;
  while (i < pdf.size() && (pdf[i] == ' ' || pdf[i] == '\r' || pdf[i] == '\n')) ++i;
  long long value = 0;
  bool any = false;
  while (i < pdf.size() && pdf[i] >= '0' && pdf[i] <= '9') {
    value = value * 10 + (pdf[i++] - '0');
    any = true;
  }
  if (!any) return std::nullopt;
  return value;
}

IncrementalUpdate::IncrementalUpdate(std::string_view original) : out_(original) {
  if (out_.empty() || (out_.back() != '\n' && out_.back() != '\r')) out_ += '\n';
}

void IncrementalUpdate::BeginObject(int id, int gen) {
  offsets_[id] = {out_.size(), gen};
  out_ += std::to_string(id) + " " + std::to_string(gen) + " obj\n";
}

std::string IncrementalUpdate::Finish(int size, std::string_view trailer_entries,
                                      long long prev_xref) && {
  // One subsection per run of consecutive object numbers.
  const size_t xref_at = out_.size();
  out_ += "xref\n";
  for (auto it = offsets_.begin(); it != offsets_.end();) {
    auto run_end = std::next(it);
    while (run_end != offsets_.end() && run_end->first == std::prev(run_end)->first + 1) ++run_end;
    out_ += std::to_string(it->first) + " " + std::to_string(std::distance(it, run_end)) + "\n";
    for (; it != run_end; ++it) {
      char entry[32];
      std::snprintf(entry, sizeof entry, "%010zu %05d n \n", it->second.first, it->second.second);
      out_ += entry;
    }
  }
  out_ += "trailer\n<< /Size " + std::to_string(size) + " " + std::string(trailer_entries) +
          "/Prev " + std::to_string(prev_xref) + " >>\nstartxref\n" + std::to_string(xref_at) +
          "\n%%EOF\n";
  return std::move(out_);
}

std::string PdfTextString(std::string_view utf8) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) {
    std::string literal = "(";
    for (const char c : utf8) {
      if (c == '(' || c == ')' || c == '\\') literal += '\\';
      literal += c;
    }
    return literal + ")";
  }
  std::string out = "<FEFF";
  auto put16 = [&](unsigned unit) {
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
  };
  for (size_t i = 0; i < utf8.size();) {
    const auto byte = static_cast<unsigned char>(utf8[i]);
    unsigned code = 0xFFFD;
    size_t length = 1;
    if (byte < 0x80) {
      code = byte;
    } else if ((byte >> 5) == 0x6 && i + 1 < utf8.size()) {
      code = ((byte & 0x1Fu) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu);
      length = 2;
    } else if ((byte >> 4) == 0xE && i + 2 < utf8.size()) {
      code = ((byte & 0x0Fu) << 12) | ((static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu) << 6) |
             (static_cast<unsigned char>(utf8[i + 2]) & 0x3Fu);
      length = 3;
    } else if ((byte >> 3) == 0x1E && i + 3 < utf8.size()) {
      code = ((byte & 0x07u) << 18) | ((static_cast<unsigned char>(utf8[i + 1]) & 0x3Fu) << 12) |
             ((static_cast<unsigned char>(utf8[i + 2]) & 0x3Fu) << 6) |
             (static_cast<unsigned char>(utf8[i + 3]) & 0x3Fu);
      length = 4;
    }
    i += length;
    if (code >= 0x10000) {
      code -= 0x10000;
      put16(0xD800 | (code >> 10));
      put16(0xDC00 | (code & 0x3FF));
    } else {
      put16(code);
    }
  }
  return out + ">";
}

}  // namespace esign::documents
