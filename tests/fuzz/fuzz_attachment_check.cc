// A signer's attached file (documents/attachment_check.h): the first byte picks the media type
// claimed (PDF, PNG, JPEG), the rest is the file. Any bytes give the file to store or one of the
// documented refusals, never a crash; an image is stored exactly as given.
#include <cstddef>
#include <cstdint>
#include <string>

#include "documents/attachment_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  if (size == 0) return 0;
  static constexpr const char* kTypes[] = {"application/pdf", "image/png", "image/jpeg"};
  const std::string type = kTypes[data[0] % 3];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto checked = documents::CheckAttachment(bytes, type);
  if (checked) {
    if (checked->media_type != type || checked->bytes.empty()) __builtin_trap();
    if (type != "application/pdf" && checked->bytes != bytes) __builtin_trap();
    return 0;
  }
  switch (checked.error().code) {
    case ErrorCode::kDocumentInvalid:
    case ErrorCode::kDocumentEncrypted:
    case ErrorCode::kDocumentLimitExceeded:
    case ErrorCode::kDocumentTooLarge:
      return 0;
    default:
      __builtin_trap();
  }
}
