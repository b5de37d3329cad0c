#include "documents/qpdf_document.h"

namespace esign::documents {

Result<std::string> WritePdf(QpdfReader& pdf) {
  qpdf_data q = pdf.get();
  qpdf_init_write_memory(q);
  qpdf_set_deterministic_ID(q, QPDF_TRUE);
  qpdf_set_object_stream_mode(q, qpdf_o_disable);
  qpdf_set_decode_level(q, qpdf_dl_none);
  qpdf_set_compress_streams(q, QPDF_FALSE);
  qpdf_set_minimum_pdf_version(q, "1.7");
  if ((qpdf_write(q) & QPDF_ERRORS) != 0 || pdf.Failed()) {
    return Fail(ErrorCode::kInternal, "cannot write the PDF: " + pdf.ErrorText());
  }
  return std::string(reinterpret_cast<const char*>(qpdf_get_buffer(q)),
                     static_cast<size_t>(qpdf_get_buffer_length(q)));
}

qpdf_oh NewStream(qpdf_data q, std::string_view data) {
  const qpdf_oh stream = qpdf_oh_new_stream(q);
  qpdf_oh_replace_stream_data(q, stream, reinterpret_cast<const unsigned char*>(data.data()),
                              data.size(), qpdf_oh_new_null(q), qpdf_oh_new_null(q));
  return stream;
}

void AddPageContent(qpdf_data q, qpdf_oh page, qpdf_oh stream, bool first) {
  const qpdf_oh contents = qpdf_oh_get_key(q, page, "/Contents");
  const qpdf_oh streams = qpdf_oh_new_array(q);
  if (qpdf_oh_is_array(q, contents) != QPDF_FALSE) {
    for (int i = 0, n = qpdf_oh_get_array_n_items(q, contents); i < n; ++i) {
      qpdf_oh_append_item(q, streams, qpdf_oh_get_array_item(q, contents, i));
    }
  } else if (qpdf_oh_is_stream(q, contents) != QPDF_FALSE) {
    qpdf_oh_append_item(q, streams, contents);
  }
  if (first) {
    qpdf_oh_insert_item(q, streams, 0, stream);
  } else {
    qpdf_oh_append_item(q, streams, stream);
  }
  qpdf_oh_replace_key(q, page, "/Contents", streams);
}

std::vector<std::string> KeysOf(qpdf_data q, qpdf_oh dictionary) {
  std::vector<std::string> keys;
  if (qpdf_oh_is_dictionary(q, dictionary) == QPDF_FALSE) return keys;
  qpdf_oh_begin_dict_key_iter(q, dictionary);
  while (qpdf_oh_dict_more_keys(q) != QPDF_FALSE) keys.emplace_back(qpdf_oh_dict_next_key(q));
  return keys;
}

qpdf_oh ShallowCopy(qpdf_data q, qpdf_oh dictionary) {
  const qpdf_oh copy = qpdf_oh_new_dictionary(q);
  for (const std::string& key : KeysOf(q, dictionary)) {
    qpdf_oh_replace_key(q, copy, key.c_str(), qpdf_oh_get_key(q, dictionary, key.c_str()));
  }
  return copy;
}

qpdf_oh CopyForeign(const QpdfReader& to, const QpdfReader& from, qpdf_oh object) {
  qpdf_data t = to.get();
  qpdf_data f = from.get();
  if (qpdf_oh_is_indirect(f, object) != QPDF_FALSE) {
    return qpdf_oh_copy_foreign_object(t, f, object);
  }
  if (qpdf_oh_is_dictionary(f, object) != QPDF_FALSE) {
    const qpdf_oh copy = qpdf_oh_new_dictionary(t);
    for (const std::string& key : KeysOf(f, object)) {
      qpdf_oh_replace_key(t, copy, key.c_str(),
                          CopyForeign(to, from, qpdf_oh_get_key(f, object, key.c_str())));
    }
    return copy;
  }
  if (qpdf_oh_is_array(f, object) != QPDF_FALSE) {
    const qpdf_oh copy = qpdf_oh_new_array(t);
    for (const qpdf_oh item : from.Items(object)) {
      qpdf_oh_append_item(t, copy, CopyForeign(to, from, item));
    }
    return copy;
  }
  return qpdf_oh_parse(t, from.Unparse(object).c_str());
}

}  // namespace esign::documents
