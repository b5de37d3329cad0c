#include "documents/attachment_check.h"

#include <cctype>

#include "documents/pdf_upload.h"
#include "documents/png_image.h"
#include "domain/signer_field_rules.h"

namespace esign::documents {
namespace {

Error NotWhatItSays(std::string_view media_type, std::string issue) {
  return Error::Of(ErrorCode::kDocumentInvalid,
                   "the file is not a readable " + std::string(media_type), "file",
                   std::move(issue));
}

// A JPEG stream: SOI, marker segments up to a frame header (SOF) and the scan (SOS) with their
// lengths inside the file, a frame of 1 to kMaxAttachmentPixels pixels, and EOI at the end.
Status CheckJpeg(std::string_view jpeg) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(jpeg[i]); };
  if (jpeg.size() < 4 || byte(0) != 0xFF || byte(1) != 0xD8) {
    return std::unexpected(NotWhatItSays("image/jpeg", "does not start as a JPEG (FF D8)"));
  }
  size_t end = jpeg.size();
  while (end > 2 && byte(end - 1) == 0) --end;  // padding after the image
  if (byte(end - 2) != 0xFF || byte(end - 1) != 0xD9) {
    return std::unexpected(NotWhatItSays("image/jpeg", "does not end as a JPEG (FF D9)"));
  }
  bool frame = false;
  for (size_t at = 2; at + 4 <= end;) {
    if (byte(at) != 0xFF) {
      return std::unexpected(NotWhatItSays("image/jpeg", "a damaged marker segment"));
    }
    const unsigned char marker = byte(at + 1);
    if (marker == 0xFF) {  // fill byte
      ++at;
      continue;
    }
    const size_t length = (size_t{byte(at + 2)} << 8) | byte(at + 3);
    if (length < 2 || at + 2 + length > end) {
      return std::unexpected(NotWhatItSays("image/jpeg", "a marker segment runs past the end"));
    }
    const bool sof =
        marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
    if (sof) {
      if (length < 8) return std::unexpected(NotWhatItSays("image/jpeg", "a short frame header"));
      const uint64_t height = (uint64_t{byte(at + 5)} << 8) | byte(at + 6);
      const uint64_t width = (uint64_t{byte(at + 7)} << 8) | byte(at + 8);
      if (width == 0 || height == 0 || width * height > kMaxAttachmentPixels) {
        return std::unexpected(NotWhatItSays(
            "image/jpeg", "an image of 1 to " + std::to_string(kMaxAttachmentPixels) + " pixels"));
      }
      frame = true;
    }
    if (marker == 0xDA) {  // start of scan: the entropy-coded data follows up to EOI
      if (!frame) return std::unexpected(NotWhatItSays("image/jpeg", "a scan before its frame"));
      return {};
    }
    at += 2 + length;
  }
  return std::unexpected(NotWhatItSays("image/jpeg", "no image data"));
}

Status CheckPng(std::string_view png) {
  const auto size = PngDimensions(png);
  if (!size) return std::unexpected(NotWhatItSays("image/png", "does not start as a PNG"));
  const uint64_t pixels = uint64_t{size->first} * size->second;
  if (pixels == 0 || pixels > kMaxAttachmentPixels) {
    return std::unexpected(NotWhatItSays(
        "image/png", "an image of 1 to " + std::to_string(kMaxAttachmentPixels) + " pixels"));
  }
  const SurfacePtr image = DecodePng(png);
  if (cairo_surface_status(image.get()) != CAIRO_STATUS_SUCCESS) {
    return std::unexpected(
        NotWhatItSays("image/png", std::string("cannot be decoded: ") +
                                       cairo_status_to_string(cairo_surface_status(image.get()))));
  }
  return {};
}

}  // namespace

Result<CheckedAttachment> CheckAttachment(std::string bytes, std::string_view media_type) {
  std::string type(media_type.substr(0, media_type.find(';')));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  for (char& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (type != "application/pdf" && type != "image/png" && type != "image/jpeg") {
    return Fail(ErrorCode::kUnsupportedMediaType,
                "an attachment is application/pdf, image/png or image/jpeg", "Content-Type",
                std::string(media_type));
  }
  if (bytes.size() > static_cast<uint64_t>(kMaxAttachmentBytes)) {
    return Fail(ErrorCode::kDocumentTooLarge,
                "an attachment is at most " + std::to_string(kMaxAttachmentBytes) + " bytes");
  }
  if (bytes.empty()) return std::unexpected(NotWhatItSays(type, "the file is empty"));
  if (type == "application/pdf") {
    UploadLimits limits;
    limits.max_bytes = static_cast<uint64_t>(kMaxAttachmentBytes);
    auto inspected = InspectUpload(bytes, limits);
    if (!inspected) return std::unexpected(inspected.error());
    return CheckedAttachment{std::move(inspected->cleaned_pdf), type};
  }
  const Status checked = type == "image/png" ? CheckPng(bytes) : CheckJpeg(bytes);
  if (!checked) return std::unexpected(checked.error());
  return CheckedAttachment{std::move(bytes), type};
}

}  // namespace esign::documents
