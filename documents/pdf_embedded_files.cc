#include "documents/pdf_embedded_files.h"

#include <algorithm>
#include <cctype>

#include "documents/pdf_incremental_update.h"
#include "documents/qpdf_reader.h"

namespace esign::documents {
namespace {

// A PDF name for a media type: "application/pdf" -> "/application#2Fpdf".
std::string MediaTypeName(std::string_view media_type) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "/";
  for (const char c : media_type) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '.' || c == '-' || c == '+') {
      out.push_back(c);
    } else {
      out += '#';
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xF]);
    }
  }
  return out;
}

}  // namespace

Result<std::string> EmbedFiles(std::string_view pdf, std::vector<EmbeddedFile> files) {
  if (files.empty()) return std::string(pdf);
  const std::optional<long long> prev = LastStartXref(pdf);
  if (!prev) return Fail(ErrorCode::kValidationFailed, "the PDF has no startxref");
  QpdfReader reader;
  if (!reader.Read(pdf)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  qpdf_data q = reader.get();
  if (qpdf_is_encrypted(q) != QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "an encrypted PDF cannot be extended");
  }
  const qpdf_oh trailer = qpdf_get_trailer(q);
  const qpdf_oh root = qpdf_oh_get_key(q, trailer, "/Root");
  const qpdf_oh size_value = qpdf_oh_get_key(q, trailer, "/Size");
  if (qpdf_oh_is_indirect(q, root) == QPDF_FALSE || qpdf_oh_is_dictionary(q, root) == QPDF_FALSE ||
      qpdf_oh_is_integer(q, size_value) == QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "the PDF has no catalog");
  }
  // A name tree's keys are sorted.
  std::sort(files.begin(), files.end(),
            [](const EmbeddedFile& a, const EmbeddedFile& b) { return a.key < b.key; });
  int next_id = qpdf_oh_get_int_value_as_int(q, size_value);
  IncrementalUpdate update(pdf);
  std::string names = "[";
  std::string associated = "[";
  for (const EmbeddedFile& file : files) {
    const int stream_id = next_id++;
    update.BeginObject(stream_id, 0);
    update.out() += "<< /Type /EmbeddedFile /Subtype " + MediaTypeName(file.media_type) +
                    " /Params << /Size " + std::to_string(file.bytes.size()) + " >> /Length " +
                    std::to_string(file.bytes.size()) + " >>\nstream\n";
    update.out() += file.bytes;
    update.out() += "\nendstream\nendobj\n";
    const int spec_id = next_id++;
    update.BeginObject(spec_id, 0);
    update.out() += "<< /Type /Filespec /F " + PdfTextString(file.name) + " /UF " +
                    PdfTextString(file.name) + " /Desc " + PdfTextString(file.description) +
                    " /AFRelationship /Supplement /EF << /F " + std::to_string(stream_id) +
                    " 0 R >> >>\nendobj\n";
    names += PdfTextString(file.key) + " " + std::to_string(spec_id) + " 0 R ";
    associated += std::to_string(spec_id) + " 0 R ";
  }
  names += "]";
  associated += "]";
  const qpdf_oh existing_names = qpdf_oh_get_key(q, root, "/Names");
  const std::string other_names = qpdf_oh_is_dictionary(q, existing_names) != QPDF_FALSE
                                      ? reader.DictEntries(existing_names, {"/EmbeddedFiles"})
                                      : "";
  update.BeginObject(qpdf_oh_get_object_id(q, root), qpdf_oh_get_generation(q, root));
  update.out() += "<< " + reader.DictEntries(root, {"/Names", "/AF"}) + "/Names << " + other_names +
                  "/EmbeddedFiles << /Names " + names + " >> >> /AF " + associated +
                  " >>\nendobj\n";
  const std::string trailer_entries = reader.TrailerEntriesForUpdate();
  if (reader.Failed()) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + reader.ErrorText());
  }
  return std::move(update).Finish(next_id, trailer_entries, *prev);
}

}  // namespace esign::documents
