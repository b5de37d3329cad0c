// A QPDF session over PDF bytes in memory, through QPDF's C API: the C API (rather than the C++
// one) keeps QPDF's exceptions inside the library; failures come back as flags and defaults,
// checked with Failed(). Used by the signer and the signature check to read objects.
// Thread safety: one reader per thread; distinct readers share nothing.
#pragma once

#include <qpdf/qpdf-c.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace esign::documents {

// "n g R", a reference to object n generation g.
inline std::string Ref(int id, int gen) {
  return std::to_string(id) + " " + std::to_string(gen) + " R";
}

class QpdfReader {
 public:
  QpdfReader() : qpdf_(qpdf_init()) {
    qpdf_silence_errors(qpdf_);
    qpdf_set_suppress_warnings(qpdf_, QPDF_TRUE);
  }
  ~QpdfReader() { qpdf_cleanup(&qpdf_); }
  QpdfReader(const QpdfReader&) = delete;
  QpdfReader& operator=(const QpdfReader&) = delete;

  qpdf_data get() const { return qpdf_; }
  // Parses `pdf`, which must outlive the reader (QPDF reads it in place). False when QPDF cannot
  // read it at all (ErrorText() says why); it repairs what it can silently.
  bool Read(std::string_view pdf) {
    return (qpdf_read_memory(qpdf_, "document", pdf.data(), pdf.size(), nullptr) & QPDF_ERRORS) ==
           0;
  }
  bool Failed() const { return qpdf_has_error(qpdf_) != QPDF_FALSE; }
  std::string ErrorText() const {
    qpdf_error error = qpdf_get_error(qpdf_);
    return error != nullptr ? qpdf_get_error_full_text(qpdf_, error) : "unknown error";
  }
  std::string RefOf(qpdf_oh handle) const {
    return Ref(qpdf_oh_get_object_id(qpdf_, handle), qpdf_oh_get_generation(qpdf_, handle));
  }
  std::string Unparse(qpdf_oh handle) const { return qpdf_oh_unparse(qpdf_, handle); }

  // The dictionary's entries, except `skip`, as PDF text; indirect values stay references.
  std::string DictEntries(qpdf_oh dict, const std::set<std::string>& skip) const {
    std::vector<std::string> keys;
    qpdf_oh_begin_dict_key_iter(qpdf_, dict);
    while (qpdf_oh_dict_more_keys(qpdf_) != QPDF_FALSE)
      keys.emplace_back(qpdf_oh_dict_next_key(qpdf_));
    std::string out;
    for (const std::string& key : keys) {
      if (skip.contains(key)) continue;
      out += Unparse(qpdf_oh_new_name(qpdf_, key.c_str())) + " " +
             Unparse(qpdf_oh_get_key(qpdf_, dict, key.c_str())) + " ";
    }
    return out;
  }
  // The trailer entries of an incremental update of the document read: its /Root and whatever
  // else it carried (/Info, /ID), without those the update's own xref section replaces.
  std::string TrailerEntriesForUpdate() const {
    const qpdf_oh trailer = qpdf_get_trailer(qpdf_);
    return "/Root " + RefOf(qpdf_oh_get_key(qpdf_, trailer, "/Root")) + " " +
           DictEntries(trailer, {"/Root", "/Size", "/Prev", "/XRefStm", "/Type", "/W", "/Index",
                                 "/Filter", "/DecodeParms", "/Length", "/Encrypt"});
  }
  std::vector<qpdf_oh> Items(qpdf_oh array) const {
    std::vector<qpdf_oh> out;
    if (qpdf_oh_is_array(qpdf_, array) == QPDF_FALSE) return out;
    const int count = qpdf_oh_get_array_n_items(qpdf_, array);
    for (int i = 0; i < count; ++i) out.push_back(qpdf_oh_get_array_item(qpdf_, array, i));
    return out;
  }
  std::vector<std::string> RefsOf(qpdf_oh array) const {
    std::vector<std::string> out;
    for (const qpdf_oh item : Items(array)) {
      out.push_back(qpdf_oh_is_indirect(qpdf_, item) != QPDF_FALSE ? RefOf(item) : Unparse(item));
    }
    return out;
  }

 private:
  qpdf_data qpdf_;
};

}  // namespace esign::documents
