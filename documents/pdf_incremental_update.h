// An incremental update of a PDF (ISO 32000-1, 7.5.6): the original bytes stay an exact prefix,
// new or changed objects follow, then a classic xref section listing only them, and a trailer
// whose /Prev points at the previous xref section. Readers see the newest version of each object.
// Thread safety: a value type, used by one thread at a time.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace esign::documents {

// Offset of the last xref section: the number after the last "startxref"; nothing when absent.
std::optional<long long> LastStartXref(std::string_view pdf);

// A PDF text string: printable ASCII as a literal string; anything else as UTF-16BE with a byte
// order mark, hex-encoded, because PDFDocEncoding cannot carry arbitrary Unicode.
std::string PdfTextString(std::string_view utf8);

class IncrementalUpdate {
 public:
  // Starts after `original`, adding a line break when it does not end with one.
  explicit IncrementalUpdate(std::string_view original);

  // Opens object `id` generation `gen` ("id gen obj\n"); the caller writes its body into out()
  // and then "\nendobj\n".
  void BeginObject(int id, int gen);
  std::string& out() { return out_; }

  // Writes the xref section of every begun object and the trailer: /Size, then `trailer_entries`
  // (e.g. "/Root 1 0 R /Info 3 0 R "), then /Prev, startxref and %%EOF. Returns the whole file.
  std::string Finish(int size, std::string_view trailer_entries, long long prev_xref) &&;

 private:
  std::string out_;
  std::map<int, std::pair<size_t, int>> offsets_;  // object id -> (offset, generation)
};

}  // namespace esign::documents
