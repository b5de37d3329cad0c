#include "documents/uploaded_pdf_composer.h"

#include <memory>
#include <set>
#include <vector>

#include "documents/pdf_page_frame.h"
#include "documents/qpdf_document.h"

namespace esign::documents {
namespace {

// The fully qualified name of the field a widget belongs to: the /T of the widget and of its
// /Parent fields, outermost first, joined by dots (a chain longer than 32 is cut there).
std::string FieldName(qpdf_data q, qpdf_oh widget) {
  std::vector<std::string> parts;  // innermost first
  qpdf_oh node = widget;
  for (int depth = 0; depth < 32 && qpdf_oh_is_dictionary(q, node) != QPDF_FALSE; ++depth) {
    const qpdf_oh part = qpdf_oh_get_key(q, node, "/T");
    if (qpdf_oh_is_string(q, part) != QPDF_FALSE)
      parts.emplace_back(qpdf_oh_get_utf8_value(q, part));
    node = qpdf_oh_get_key(q, node, "/Parent");
  }
  std::string name;
  for (auto part = parts.rbegin(); part != parts.rend(); ++part) {
    if (!name.empty()) name += '.';
    name += *part;
  }
  return name;
}

// The page's annotations without the widgets of the named fields.
void DropMappedWidgets(const QpdfReader& pdf, qpdf_oh page, const std::set<std::string>& mapped) {
  qpdf_data q = pdf.get();
  const qpdf_oh annotations = qpdf_oh_get_key(q, page, "/Annots");
  if (mapped.empty() || qpdf_oh_is_array(q, annotations) == QPDF_FALSE) return;
  const qpdf_oh kept = qpdf_oh_new_array(q);
  bool dropped = false;
  for (const qpdf_oh annotation : pdf.Items(annotations)) {
    const qpdf_oh subtype = qpdf_oh_get_key(q, annotation, "/Subtype");
    if (qpdf_oh_is_name_and_equals(q, subtype, "/Widget") != QPDF_FALSE &&
        mapped.contains(FieldName(q, annotation))) {
      dropped = true;
    } else {
      qpdf_oh_append_item(q, kept, annotation);
    }
  }
  if (dropped) qpdf_oh_replace_key(q, page, "/Annots", kept);
}

std::string CoverStream(const PageFrame& frame, const std::vector<PageRect>& covers) {
  std::string out = "Q\n";
  if (covers.empty()) return out;
  out += "q " + frame.Matrix() + " cm 1 g\n";
  for (const PageRect& cover : covers) out += CanvasRect(frame, cover) + " re f\n";
  return out + "Q\n";
}

Status Unreadable(const QpdfReader& pdf, const std::string& what) {
  return Fail(ErrorCode::kValidationFailed, "cannot compose " + what + ": " + pdf.ErrorText());
}

}  // namespace

Result<std::string> ComposeUploadedPdf(std::span<const UploadedPdf> documents) {
  if (documents.empty()) {
    return Fail(ErrorCode::kValidationFailed, "a contract from uploads needs a document");
  }
  QpdfReader out;
  qpdf_data o = out.get();
  if ((qpdf_empty_pdf(o) & QPDF_ERRORS) != 0) return Fail(Unreadable(out, "the PDF").error());
  // QPDF copies stream data from its source when writing: every source lives until then.
  std::vector<std::unique_ptr<QpdfReader>> sources;
  std::vector<std::vector<PageRect>> covers;  // of every composed page
  for (const UploadedPdf& input : documents) {
    const ContractDocument& document = *input.document;
    sources.push_back(std::make_unique<QpdfReader>());
    const QpdfReader& source = *sources.back();
    qpdf_data s = source.get();
    if (!sources.back()->Read(input.cleaned_pdf)) {
      return Fail(Unreadable(source, "document " + document.document_id).error());
    }
    qpdf_push_inherited_attributes_to_page(s);
    const int count = qpdf_get_num_pages(s);
    if (source.Failed() || count < 0 || static_cast<size_t>(count) != document.pages.size()) {
      return Fail(ErrorCode::kValidationFailed,
                  "document " + document.document_id + " has " + std::to_string(count) +
                      " pages where the contract records " + std::to_string(document.pages.size()));
    }
    const size_t first = covers.size();
    covers.resize(first + document.pages.size());
    for (const PageRect& cover : document.covers) {
      if (cover.page < 1 || static_cast<size_t>(cover.page) > document.pages.size()) {
        return Fail(ErrorCode::kValidationFailed, "document " + document.document_id +
                                                      " has no page " + std::to_string(cover.page));
      }
      covers[first + static_cast<size_t>(cover.page) - 1].push_back(cover);
    }
    const std::set<std::string> mapped(document.mapped_form_fields.begin(),
                                       document.mapped_form_fields.end());
    for (int i = 0; i < count; ++i) {
      const qpdf_oh page = qpdf_get_page_n(s, static_cast<size_t>(i));
      DropMappedWidgets(source, page, mapped);
      if ((qpdf_add_page(o, s, page, QPDF_FALSE) & QPDF_ERRORS) != 0 || source.Failed()) {
        return Fail(
            Unreadable(out.Failed() ? out : source, "document " + document.document_id).error());
      }
    }
  }
  const qpdf_oh save = NewStream(o, "q\n");
  const qpdf_oh restore = NewStream(o, "Q\n");
  for (size_t i = 0; i < covers.size(); ++i) {
    const qpdf_oh page = qpdf_get_page_n(o, i);
    AddPageContent(o, page, save, true);
    AddPageContent(
        o, page,
        covers[i].empty() ? restore : NewStream(o, CoverStream(FrameOf(out, page), covers[i])),
        false);
  }
  if (out.Failed()) return Fail(Unreadable(out, "the PDF").error());
  return WritePdf(out);
}

}  // namespace esign::documents
