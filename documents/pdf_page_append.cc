#include "documents/pdf_page_append.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "documents/pdf_incremental_update.h"
#include "documents/qpdf_reader.h"

namespace esign::documents {
namespace {

// Copies objects out of one QPDF session under new object numbers: every indirect object reached
// gets the next free number the first time it is met, so the copy is closed and deterministic.
class ObjectCopier {
 public:
  ObjectCopier(const QpdfReader& from, int first_id, std::string parent_ref)
      : reader_(from), q_(from.get()), next_id_(first_id), parent_ref_(std::move(parent_ref)) {}

  // The reference that stands for `handle` (indirect) in the copy.
  std::string RefTo(qpdf_oh handle) {
    const std::pair<int, int> key{qpdf_oh_get_object_id(q_, handle),
                                  qpdf_oh_get_generation(q_, handle)};
    auto [it, inserted] = ids_.try_emplace(key, next_id_);
    if (inserted) {
      ++next_id_;
      pending_.emplace_back(handle, it->second);
    }
    return Ref(it->second, 0);
  }

  // Writes every object queued so far, and those they reach, into `update`.
  void WriteAll(IncrementalUpdate& update, const std::vector<qpdf_oh>& pages) {
    std::map<std::pair<int, int>, bool> is_page;
    for (const qpdf_oh page : pages) {
      is_page[{qpdf_oh_get_object_id(q_, page), qpdf_oh_get_generation(q_, page)}] = true;
    }
    while (!pending_.empty()) {
      const auto [handle, id] = pending_.front();
      pending_.pop_front();
      const bool page =
          is_page.contains({qpdf_oh_get_object_id(q_, handle), qpdf_oh_get_generation(q_, handle)});
      update.BeginObject(id, 0);
      update.out() += Body(handle, page);
      update.out() += "\nendobj\n";
    }
  }

  int next_id() const { return next_id_; }

 private:
  std::string Body(qpdf_oh handle, bool page) {
    if (qpdf_oh_is_stream(q_, handle) == QPDF_FALSE) {
      return page ? Dictionary(handle, "/Parent " + parent_ref_ + " ", {"/Parent"})
                  : Direct(handle);
    }
    // The raw (still encoded) data under its own filters; /Length written directly.
    unsigned char* data = nullptr;
    size_t length = 0;
    qpdf_oh_get_stream_data(q_, handle, qpdf_dl_none, nullptr, &data, &length);
    std::string raw(reinterpret_cast<const char*>(data), data != nullptr ? length : 0);
    std::free(data);
    return Dictionary(qpdf_oh_get_dict(q_, handle), "/Length " + std::to_string(raw.size()) + " ",
                      {"/Length"}) +
           "\nstream\n" + raw + "\nendstream";
  }

  // A value as PDF text; indirect objects inside it become references into the copy.
  std::string Value(qpdf_oh value) {
    if (qpdf_oh_is_indirect(q_, value) != QPDF_FALSE) return RefTo(value);
    return Direct(value);
  }

  std::string Direct(qpdf_oh value) {
    switch (qpdf_oh_get_type_code(q_, value)) {
      case ot_array: {
        std::string out = "[";
        for (const qpdf_oh item : reader_.Items(value)) out += Value(item) + " ";
        return out + "]";
      }
      case ot_dictionary:
        return Dictionary(value, "", {});
      default:
        return reader_.Unparse(value);
    }
  }

  // `extra` first, then every entry but `skip`. Keys are read before any value is copied: QPDF's
  // C API has one key iterator per session.
  std::string Dictionary(qpdf_oh dict, const std::string& extra,
                         const std::vector<std::string>& skip) {
    std::vector<std::string> keys;
    qpdf_oh_begin_dict_key_iter(q_, dict);
    while (qpdf_oh_dict_more_keys(q_) != QPDF_FALSE) keys.emplace_back(qpdf_oh_dict_next_key(q_));
    std::string out = "<< " + extra;
    for (const std::string& key : keys) {
      if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
      out += reader_.Unparse(qpdf_oh_new_name(q_, key.c_str())) + " " +
             Value(qpdf_oh_get_key(q_, dict, key.c_str())) + " ";
    }
    return out + ">>";
  }

  const QpdfReader& reader_;
  qpdf_data q_;
  int next_id_;
  std::string parent_ref_;
  std::map<std::pair<int, int>, int> ids_;
  std::deque<std::pair<qpdf_oh, int>> pending_;
};

Status Readable(const QpdfReader& reader, std::string_view what) {
  if (reader.Failed()) {
    return Fail(ErrorCode::kValidationFailed,
                "unreadable PDF (" + std::string(what) + "): " + reader.ErrorText());
  }
  if (qpdf_is_encrypted(reader.get()) != QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "an encrypted PDF cannot be extended");
  }
  return {};
}

}  // namespace

Result<std::string> AppendPdfPages(std::string_view pdf, std::string_view pages) {
  const std::optional<long long> prev = LastStartXref(pdf);
  if (!prev) return Fail(ErrorCode::kValidationFailed, "the PDF has no startxref");
  QpdfReader base;
  if (!base.Read(pdf)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF: " + base.ErrorText());
  }
  if (auto ok = Readable(base, "document"); !ok) return Fail(ok.error());
  QpdfReader extra;
  if (!extra.Read(pages)) {
    return Fail(ErrorCode::kValidationFailed, "unreadable PDF (pages): " + extra.ErrorText());
  }
  if (auto ok = Readable(extra, "pages"); !ok) return Fail(ok.error());

  qpdf_data b = base.get();
  const qpdf_oh trailer = qpdf_get_trailer(b);
  const qpdf_oh root = qpdf_oh_get_key(b, trailer, "/Root");
  const qpdf_oh tree = qpdf_oh_get_key(b, root, "/Pages");
  const qpdf_oh size_value = qpdf_oh_get_key(b, trailer, "/Size");
  const qpdf_oh count = qpdf_oh_get_key(b, tree, "/Count");
  if (qpdf_oh_is_indirect(b, tree) == QPDF_FALSE || qpdf_oh_is_dictionary(b, tree) == QPDF_FALSE ||
      qpdf_oh_is_integer(b, size_value) == QPDF_FALSE ||
      qpdf_oh_is_integer(b, count) == QPDF_FALSE) {
    return Fail(ErrorCode::kValidationFailed, "the PDF has no page tree");
  }
  const int size = qpdf_oh_get_int_value_as_int(b, size_value);

  qpdf_data e = extra.get();
  // Attributes a page inherits from its tree (MediaBox, Resources) move onto the page, because
  // the copies hang under another tree.
  qpdf_push_inherited_attributes_to_page(e);
  std::vector<qpdf_oh> added;
  for (int i = 0, n = qpdf_get_num_pages(e); i < n; ++i) added.push_back(qpdf_get_page_n(e, i));
  if (auto ok = Readable(extra, "pages"); !ok) return Fail(ok.error());
  if (added.empty()) return std::string(pdf);

  ObjectCopier copier(extra, size, base.RefOf(tree));
  std::vector<std::string> kids = base.RefsOf(qpdf_oh_get_key(b, tree, "/Kids"));
  for (const qpdf_oh page : added) kids.push_back(copier.RefTo(page));

  IncrementalUpdate update(pdf);
  copier.WriteAll(update, added);
  update.BeginObject(qpdf_oh_get_object_id(b, tree), qpdf_oh_get_generation(b, tree));
  std::string& out = update.out();
  out += "<< " + base.DictEntries(tree, {"/Kids", "/Count"}) + "/Kids [";
  for (const std::string& kid : kids) out += kid + " ";
  out += "] /Count " +
         std::to_string(qpdf_oh_get_int_value_as_int(b, count) + static_cast<int>(added.size())) +
         " >>\nendobj\n";
  const std::string trailer_entries = base.TrailerEntriesForUpdate();
  if (base.Failed() || extra.Failed()) {
    return Fail(ErrorCode::kValidationFailed,
                "unreadable PDF: " + (base.Failed() ? base.ErrorText() : extra.ErrorText()));
  }
  return std::move(update).Finish(copier.next_id(), trailer_entries, *prev);
}

}  // namespace esign::documents
