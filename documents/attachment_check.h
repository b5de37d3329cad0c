// A file a signer attaches (an attachment field, DESIGN section 21): a PDF, PNG or JPEG of at most
// 10 MiB, checked before it is stored. Its bytes must be what its media type says: a PDF is
// inspected as uploads are (pdf_upload.h: limits, active content removed, the cleaned copy kept),
// a PNG must decode whole, a JPEG must be a well-formed baseline or progressive JPEG stream. An
// image is at most 100 megapixels. Thread safety: a pure function; any thread.
#pragma once

#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::documents {

inline constexpr uint64_t kMaxAttachmentPixels = 100'000'000;

struct CheckedAttachment {
  std::string bytes;       // what is stored: the cleaned PDF, or the image as given
  std::string media_type;  // the media type alone, lower case
};

// kUnsupportedMediaType for a media type other than application/pdf, image/png, image/jpeg;
// kDocumentTooLarge above kMaxAttachmentBytes; kDocumentInvalid (field "file") for bytes that
// are not what the media type says, or an image too large to decode; the PDF errors of
// InspectUpload.
Result<CheckedAttachment> CheckAttachment(std::string bytes, std::string_view media_type);

}  // namespace esign::documents
