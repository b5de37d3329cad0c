// An organization's logo (documents/logo_image.h): the first byte picks the media type claimed
// (PNG or JPEG), the rest is the file, decoded by cairo or libjpeg-turbo (with its error exit
// turned into a jump back). Any bytes give a PNG within the logo's limits or one of the documented
// refusals, never a crash, a leak or a read outside the input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "documents/logo_image.h"
#include "documents/png_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  if (size == 0) return 0;
  static constexpr const char* kTypes[] = {"image/png", "image/jpeg"};
  const std::string type = kTypes[data[0] % 2];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto logo = documents::NormalizedLogo(bytes, type);
  if (logo) {
    const auto sides = documents::PngDimensions(*logo);
    if (!sides || sides->first == 0 || sides->second == 0 ||
        sides->first > static_cast<uint32_t>(documents::kMaxLogoSide) ||
        sides->second > static_cast<uint32_t>(documents::kMaxLogoSide)) {
      __builtin_trap();
    }
    return 0;
  }
  switch (logo.error().code) {
    case ErrorCode::kValidationFailed:
    case ErrorCode::kPayloadTooLarge:
      return 0;
    default:
      __builtin_trap();
  }
}
