#include "documents/pdf_upload.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <new>
#include <optional>
#include <set>
#include <utility>

#include "documents/active_content.h"
#include "documents/pdf_page_frame.h"
#include "documents/qpdf_cxx.h"
#include "documents/text_tags.h"

namespace esign::documents {
namespace {

// The PDF header may follow up to this many bytes of junk (ISO 32000-1, annex H.3).
constexpr size_t kHeaderWindow = 1024;
// Pages are at most 14,400 units on a side (ISO 32000-1, annex C.2).
constexpr double kMaxPageSide = 14'400;

std::string Number(uint64_t n) { return std::to_string(n); }

// Every Flate stream of the raw bytes inflated into a small buffer and counted, before QPDF reads
// anything: QPDF inflates object and cross-reference streams whole when it reads them, so a bomb
// hidden there must be refused before it is parsed. A stream that is not Flate fails at its first
// bytes.
Status CheckInflation(std::string_view bytes, const UploadLimits& limits) {
  std::array<unsigned char, 64 << 10> out;
  uint64_t total = 0;
  size_t at = 0;
  while ((at = bytes.find("stream", at)) != std::string_view::npos) {
    const bool is_end = at >= 3 && bytes.substr(at - 3, 3) == "end";
    size_t data = at + 6;
    at = data;
    if (is_end) continue;
    if (data < bytes.size() && bytes[data] == '\r') ++data;
    if (data + 2 >= bytes.size() || bytes[data] != '\n') continue;
    ++data;
    const auto cmf = static_cast<unsigned char>(bytes[data]);
    const auto flg = static_cast<unsigned char>(bytes[data + 1]);
    if ((cmf & 0x0F) != 8 || ((cmf << 8) | flg) % 31 != 0) continue;
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return Fail(ErrorCode::kInternal, "zlib could not start");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + data));
    z.avail_in = static_cast<uInt>(std::min<size_t>(bytes.size() - data, UINT32_MAX));
    uint64_t stream_bytes = 0;
    int status = Z_OK;
    while (status == Z_OK) {
      z.next_out = out.data();
      z.avail_out = out.size();
      status = inflate(&z, Z_NO_FLUSH);
      const uint64_t produced = out.size() - z.avail_out;
      stream_bytes += produced;
      total += produced;
      if (stream_bytes > limits.max_decoded_bytes || total > limits.max_inflated_bytes) {
        inflateEnd(&z);
        return Fail(
            ErrorCode::kDocumentLimitExceeded,
            stream_bytes > limits.max_decoded_bytes
                ? "a stream inflates to more than " + Number(limits.max_decoded_bytes) + " bytes"
                : "the streams inflate to more than " + Number(limits.max_inflated_bytes) +
                      " bytes together");
      }
      if (produced == 0 && status == Z_OK && z.avail_in == 0) break;
    }
    inflateEnd(&z);
  }
  return {};
}

// The number after `key` in `text`, if it is one (at most 18 digits).
std::optional<int64_t> NumberAfter(std::string_view text, std::string_view key) {
  const size_t at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  size_t i = at + key.size();
  while (i < text.size() && (text[i] == ' ' || text[i] == '\r' || text[i] == '\n')) ++i;
  int64_t value = 0;
  size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 18; ++i, ++digits) {
    value = value * 10 + (text[i] - '0');
  }
  return digits == 0 ? std::nullopt : std::optional<int64_t>(value);
}

// The /Size the last cross-reference section declares, read without parsing: QPDF builds its
// table of every entry before it can be asked for a count, so a file that declares a million
// objects is refused before it costs that table. Nothing when it cannot be found this simply
// (QPDF's count is checked later in any case).
std::optional<int64_t> DeclaredSize(std::string_view bytes) {
  const size_t startxref = bytes.rfind("startxref");
  if (startxref == std::string_view::npos) return std::nullopt;
  const auto offset = NumberAfter(bytes.substr(startxref, 64), "startxref");
  if (!offset || static_cast<uint64_t>(*offset) >= bytes.size()) return std::nullopt;
  std::string_view section = bytes.substr(static_cast<size_t>(*offset));
  if (section.starts_with("xref")) {
    const size_t trailer = section.find("trailer");
    if (trailer == std::string_view::npos) return std::nullopt;
    section = section.substr(trailer);
  }
  // A trailer, or the dictionary of a cross-reference stream up to its data.
  section = section.substr(0, std::min(section.find("stream"), size_t{4096}));
  return NumberAfter(section, "/Size");
}

// Counts what a stream decodes to and stops it at the budget: QPDF turns the exception into a
// failed decode, which unwinds out of the inflater before more is produced.
class BoundedCount : public Pipeline {
 public:
  BoundedCount(uint64_t& used, uint64_t limit)
      : Pipeline("bounded count", nullptr), used_(used), limit_(limit) {}
  void write(unsigned char const*, size_t length) override {
    used_ += length;
    if (used_ > limit_) throw std::length_error("decoded bytes over the limit");
  }
  void finish() override {}

 private:
  uint64_t& used_;
  uint64_t limit_;
};

// The page tree walked without recursion, before QPDF walks it recursively: a loop, a tree deeper
// than the depth limit or more pages than allowed is refused without a deep stack or a long walk.
Status CheckPageTree(QPDF& pdf, const UploadLimits& limits) {
  QPDFObjectHandle root = pdf.getRoot().getKey("/Pages");
  if (!root.isDictionary()) return Fail(ErrorCode::kDocumentInvalid, "the PDF has no page tree");
  std::vector<std::pair<QPDFObjectHandle, int64_t>> pending{{root, 0}};
  std::set<QPDFObjGen> seen;
  int64_t pages = 0;
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (node.isIndirect() && !seen.insert(node.getObjGen()).second) {
      return Fail(ErrorCode::kDocumentInvalid, "the page tree loops or lists a page twice");
    }
    if (depth > limits.max_depth) {
      return Fail(ErrorCode::kDocumentLimitExceeded,
                  "the page tree is deeper than " + Number(limits.max_depth) + " levels");
    }
    if (!node.isDictionary()) {
      return Fail(ErrorCode::kDocumentInvalid, "the page tree holds something that is not a page");
    }
    QPDFObjectHandle kids = node.getKey("/Kids");
    if (!kids.isArray()) {
      if (++pages > limits.max_pages) {
        return Fail(ErrorCode::kDocumentLimitExceeded,
                    "the PDF has more than " + Number(limits.max_pages) + " pages");
      }
      continue;
    }
    if (static_cast<int64_t>(seen.size() + pending.size()) > limits.max_objects) {
      return Fail(ErrorCode::kDocumentLimitExceeded, "the page tree has too many nodes");
    }
    for (const QPDFObjectHandle& kid : kids.aitems()) pending.emplace_back(kid, depth + 1);
  }
  if (pages == 0) return Fail(ErrorCode::kDocumentInvalid, "the PDF has no pages");
  return {};
}

PdfBox BoxOf(QPDFObjectHandle array) {
  if (!array.isRectangle()) return {};
  const QPDFObjectHandle::Rectangle r = array.getArrayAsRectangle();
  return {std::min(r.llx, r.urx), std::min(r.lly, r.ury), std::max(r.llx, r.urx),
          std::max(r.lly, r.ury)};
}

Result<PageFrame> FrameOf(QPDFPageObjectHelper page, int64_t number) {
  const PdfBox media = BoxOf(page.getMediaBox());
  if (!media.valid()) {
    return Fail(ErrorCode::kDocumentInvalid, "page " + Number(number) + " has no valid media box");
  }
  QPDFObjectHandle rotate = page.getAttribute("/Rotate", false);
  const PageFrame frame = FrameFromBoxes(media, BoxOf(page.getCropBox()),
                                         rotate.isInteger() ? rotate.getIntValue() : 0);
  if (frame.urx - frame.llx > kMaxPageSide || frame.ury - frame.lly > kMaxPageSide) {
    return Fail(ErrorCode::kDocumentInvalid,
                "page " + Number(number) + " is larger than 14400 points on a side");
  }
  return frame;
}

// Page contents and the form XObjects they draw, each stream once, decoded together within the
// limit: this is what poppler decodes afterwards to find the text tags.
Status CheckContentStreams(const std::vector<QPDFPageObjectHelper>& pages,
                           const UploadLimits& limits) {
  uint64_t used = 0;
  std::set<QPDFObjGen> seen;
  bool over = false;
  auto decode = [&](QPDFObjectHandle stream) {
    if (over || !stream.isStream() || !seen.insert(stream.getObjGen()).second) return;
    BoundedCount count(used, limits.max_decoded_bytes);
    stream.pipeStreamData(&count, 0, qpdf_dl_generalized, true);
    over = used > limits.max_decoded_bytes;
  };
  for (QPDFPageObjectHelper page : pages) {
    for (const QPDFObjectHandle& stream : page.getPageContents()) decode(stream);
    page.forEachFormXObject(true, [&](QPDFObjectHandle& xobject, QPDFObjectHandle&,
                                      std::string const&) { decode(xobject); });
    if (over) {
      return Fail(
          ErrorCode::kDocumentLimitExceeded,
          "the pages' content decodes to more than " + Number(limits.max_decoded_bytes) + " bytes");
    }
  }
  return {};
}

std::string FieldType(QPDFFormFieldObjectHelper field) {
  const std::string type = field.getFieldType();
  if (type == "/Tx") return "text";
  if (type == "/Ch") return "choice";
  if (type == "/Sig") return "signature";
  if (field.isCheckbox()) return "checkbox";
  if (field.isRadioButton()) return "radio";
  return "button";
}

// The AcroForm's terminal fields with their first widget; `signed_fields` counts the signature
// fields that hold a signature.
std::vector<FormField> FormFields(QPDF& pdf, const std::vector<QPDFPageObjectHelper>& pages,
                                  const std::vector<PageFrame>& frames, int64_t& signed_fields) {
  std::vector<FormField> fields;
  QPDFAcroFormDocumentHelper form(pdf);
  if (!form.hasAcroForm()) return fields;
  std::map<QPDFObjGen, size_t> widget_page;
  for (size_t i = 0; i < pages.size(); ++i) {
    for (QPDFAnnotationObjectHelper widget : form.getWidgetAnnotationsForPage(pages[i])) {
      widget_page.emplace(widget.getObjectHandle().getObjGen(), i);
    }
  }
  for (QPDFFormFieldObjectHelper field : form.getFormFields()) {
    FormField out{.name = field.getFullyQualifiedName(), .type = FieldType(field), .box = {}};
    if (out.type == "signature" && !field.getValue().isNull()) ++signed_fields;
    for (QPDFAnnotationObjectHelper widget : form.getAnnotationsForField(field)) {
      auto it = widget_page.find(widget.getObjectHandle().getObjGen());
      if (it == widget_page.end()) continue;
      const PdfBox rect = BoxOf(widget.getObjectHandle().getKey("/Rect"));
      out.box = Displayed(frames[it->second], rect, static_cast<int64_t>(it->second) + 1);
      break;
    }
    // A field without a widget on a page is not one a signer could see or fill.
    if (out.box.page == 0 || out.box.width <= 0) continue;
    fields.push_back(std::move(out));
  }
  return fields;
}

Result<InspectedUpload> Inspect(std::string_view bytes, const UploadLimits& limits) {
  QPDF pdf;
  pdf.setSuppressWarnings(true);
  pdf.setAttemptRecovery(true);
  pdf.processMemoryFile("upload", bytes.data(), bytes.size(), "");
  if (pdf.isEncrypted()) {
    return Fail(ErrorCode::kDocumentEncrypted,
                "the PDF is encrypted; save it without a password or restrictions and upload it "
                "again");
  }
  if (const size_t objects = pdf.getObjectCount();
      objects > static_cast<size_t>(limits.max_objects)) {
    return Fail(ErrorCode::kDocumentLimitExceeded, "the PDF has " + Number(objects) +
                                                       " objects; at most " +
                                                       Number(limits.max_objects) + " are allowed");
  }
  if (!pdf.getRoot().isDictionary())
    return Fail(ErrorCode::kDocumentInvalid, "the PDF has no catalog");
  if (auto tree = CheckPageTree(pdf, limits); !tree) return std::unexpected(tree.error());
  auto removed = RemoveActiveContent(pdf, limits.max_depth);
  if (!removed) return std::unexpected(removed.error());

  InspectedUpload upload;
  upload.removed.assign(removed->begin(), removed->end());
  std::vector<QPDFPageObjectHelper> pages;
  for (const QPDFObjectHandle& page : pdf.getAllPages()) pages.emplace_back(page);
  if (pages.empty()) return Fail(ErrorCode::kDocumentInvalid, "the PDF has no pages");
  if (static_cast<int64_t>(pages.size()) > limits.max_pages) {
    return Fail(ErrorCode::kDocumentLimitExceeded,
                "the PDF has more than " + Number(limits.max_pages) + " pages");
  }
  if (auto content = CheckContentStreams(pages, limits); !content) {
    return std::unexpected(content.error());
  }
  std::vector<PageFrame> frames;
  for (size_t i = 0; i < pages.size(); ++i) {
    auto frame = FrameOf(pages[i], static_cast<int64_t>(i) + 1);
    if (!frame) return std::unexpected(frame.error());
    frames.push_back(*frame);
    upload.pages.push_back(DocumentPage{frame->width(), frame->height()});
  }
  int64_t signed_fields = 0;
  upload.form_fields = FormFields(pdf, pages, frames, signed_fields);
  if (signed_fields > 0) upload.warnings.emplace_back("signatures_invalidated");
  // Warnings are QPDF's account of what it repaired while reading.
  if (pdf.anyWarnings()) upload.warnings.emplace_back("repaired");

  QPDFWriter writer(pdf);
  writer.setOutputMemory();
  // Streams are copied as they are, never inflated: the same bytes in, the same bytes out.
  writer.setDecodeLevel(qpdf_dl_none);
  writer.setDeterministicID(true);
  writer.write();
  std::shared_ptr<Buffer> buffer = writer.getBufferSharedPointer();
  upload.cleaned_pdf.assign(reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize());

  auto tags = FindTextTags(upload.cleaned_pdf);
  if (!tags) return std::unexpected(tags.error());
  upload.text_tags = std::move(*tags);
  return upload;
}

}  // namespace

Result<InspectedUpload> InspectUpload(std::string_view bytes, const UploadLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    return Fail(ErrorCode::kDocumentTooLarge, "the PDF has " + Number(bytes.size()) +
                                                  " bytes; at most " + Number(limits.max_bytes) +
                                                  " are allowed");
  }
  if (bytes.substr(0, kHeaderWindow).find("%PDF-") == std::string_view::npos) {
    return Fail(ErrorCode::kDocumentInvalid, "the upload is not a PDF (it has no %PDF- header)");
  }
  if (auto declared = DeclaredSize(bytes); declared && *declared - 1 > limits.max_objects) {
    return Fail(ErrorCode::kDocumentLimitExceeded, "the PDF declares " + Number(*declared - 1) +
                                                       " objects; at most " +
                                                       Number(limits.max_objects) + " are allowed");
  }
  if (auto inflation = CheckInflation(bytes, limits); !inflation) {
    return std::unexpected(inflation.error());
  }
  // QPDF reports what it cannot read or repair by exceptions; they end here.
  try {
    return Inspect(bytes, limits);
  } catch (const QPDFExc& e) {
    if (e.getErrorCode() == qpdf_e_password) {
      return Fail(ErrorCode::kDocumentEncrypted, "the PDF is encrypted with a password");
    }
    return Fail(ErrorCode::kDocumentInvalid,
                "the PDF is damaged beyond repair: " + e.getMessageDetail());
  } catch (const std::bad_alloc&) {
    return Fail(ErrorCode::kDocumentLimitExceeded, "the PDF needs more memory than allowed");
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kDocumentInvalid, std::string("the PDF cannot be read: ") + e.what());
  }
}

}  // namespace esign::documents
