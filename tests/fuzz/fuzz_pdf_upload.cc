// The upload check (documents/pdf_upload.h): any bytes a client uploads as a PDF. Every input is
// accepted with a cleaned copy or refused with one of the documented document codes, never a
// crash, a hang or an unbounded allocation. The limits are lowered from the defaults so that each
// input runs in milliseconds; the code paths are the same.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "documents/pdf_upload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  esign::documents::UploadLimits limits;
  limits.max_bytes = 1 << 20;
  limits.max_pages = 20;
  limits.max_objects = 5'000;
  limits.max_decoded_bytes = 8 << 20;
  limits.max_inflated_bytes = 32 << 20;
  auto upload = esign::documents::InspectUpload(bytes, limits);
  if (!upload) {
    switch (upload.error().code) {
      case esign::ErrorCode::kDocumentInvalid:
      case esign::ErrorCode::kDocumentEncrypted:
      case esign::ErrorCode::kDocumentLimitExceeded:
      case esign::ErrorCode::kDocumentTooLarge:
        return 0;
      default:
        __builtin_trap();  // an undocumented answer
    }
  }
  if (upload->pages.empty() || !upload->cleaned_pdf.starts_with("%PDF-")) __builtin_trap();
  const auto pages = static_cast<int64_t>(upload->pages.size());
  for (const auto& tag : upload->text_tags) {
    if (tag.box.page < 1 || tag.box.page > pages) __builtin_trap();
  }
  for (const auto& field : upload->form_fields) {
    if (field.box.page < 1 || field.box.page > pages) __builtin_trap();
  }
  return 0;
}
