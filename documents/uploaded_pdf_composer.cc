#include "documents/uploaded_pdf_composer.h"

#include <qpdf/QPDFFormFieldObjectHelper.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>

#include <exception>
#include <memory>
#include <set>
#include <vector>

#include "documents/pdf_page_frame.h"
#include "documents/qpdf_document.h"

namespace esign::documents {
namespace {

// The page's annotations without the widgets of the named fields.
void DropMappedWidgets(QPDFPageObjectHelper& page, const std::set<std::string>& mapped) {
  QPDFObjectHandle annotations = page.getObjectHandle().getKey("/Annots");
  if (mapped.empty() || !annotations.isArray()) return;
  QPDFObjectHandle kept = QPDFObjectHandle::newArray();
  bool dropped = false;
  for (QPDFObjectHandle annotation : annotations.aitems()) {
    const bool widget =
        annotation.isDictionary() && annotation.getKey("/Subtype").isNameAndEquals("/Widget") &&
        mapped.contains(QPDFFormFieldObjectHelper(annotation).getFullyQualifiedName());
    if (widget) {
      dropped = true;
    } else {
      kept.appendItem(annotation);
    }
  }
  if (dropped) page.getObjectHandle().replaceKey("/Annots", kept);
}

std::string CoverStream(const PageFrame& frame, const std::vector<PageRect>& covers) {
  std::string out = "Q\n";
  if (covers.empty()) return out;
  out += "q " + frame.Matrix() + " cm 1 g\n";
  for (const PageRect& cover : covers) out += CanvasRect(frame, cover) + " re f\n";
  return out + "Q\n";
}

Result<std::string> Compose(std::span<const UploadedPdf> documents) {
  QPDF out;
  out.emptyPDF();
  QPDFPageDocumentHelper composed(out);
  // QPDF copies stream data from its source when writing: every source lives until then.
  std::vector<std::unique_ptr<QPDF>> sources;
  std::vector<std::vector<PageRect>> covers;  // of every composed page
  for (size_t index = 0; index < documents.size(); ++index) {
    const ContractDocument& document = *documents[index].document;
    sources.push_back(ReadPdf(documents[index].cleaned_pdf, document.document_id));
    QPDF& source = *sources.back();
    std::vector<QPDFPageObjectHelper> pages = QPDFPageDocumentHelper(source).getAllPages();
    if (pages.size() != document.pages.size()) {
      return Fail(ErrorCode::kValidationFailed,
                  "document " + document.document_id + " has " + std::to_string(pages.size()) +
                      " pages where the contract records " + std::to_string(document.pages.size()));
    }
    const std::set<std::string> mapped(document.mapped_form_fields.begin(),
                                       document.mapped_form_fields.end());
    const size_t first = covers.size();
    covers.resize(first + pages.size());
    for (const PageRect& cover : document.covers) {
      if (cover.page < 1 || static_cast<size_t>(cover.page) > pages.size()) {
        return Fail(ErrorCode::kValidationFailed, "document " + document.document_id +
                                                      " has no page " + std::to_string(cover.page));
      }
      covers[first + static_cast<size_t>(cover.page) - 1].push_back(cover);
    }
    for (QPDFPageObjectHelper& page : pages) {
      DropMappedWidgets(page, mapped);
      composed.addPage(page, false);
    }
  }
  const QPDFObjectHandle save = out.newStream("q\n");
  const QPDFObjectHandle restore = out.newStream("Q\n");
  std::vector<QPDFPageObjectHelper> pages = composed.getAllPages();
  for (size_t i = 0; i < pages.size(); ++i) {
    QPDFPageObjectHelper& page = pages[i];
    page.addPageContents(save, true);
    page.addPageContents(
        covers[i].empty() ? restore : out.newStream(CoverStream(FrameOf(page), covers[i])), false);
  }
  return WritePdf(out);
}

}  // namespace

Result<std::string> ComposeUploadedPdf(std::span<const UploadedPdf> documents) {
  if (documents.empty()) {
    return Fail(ErrorCode::kValidationFailed, "a contract from uploads needs a document");
  }
  try {
    return Compose(documents);
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kValidationFailed,
                std::string("cannot compose the documents: ") + e.what());
  }
}

}  // namespace esign::documents
