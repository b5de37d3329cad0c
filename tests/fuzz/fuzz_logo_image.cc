// An organization's logo (documents/logo_image.h): the first byte picks the media type claimed
// (PNG or JPEG), the rest is the file, decoded by cairo or libjpeg-turbo (with its error exit
// turned into a jump back). Any bytes give a PNG within the logo's limits or one of the documented
// refusals, never a crash, a leak or a read outside the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "documents/logo_image.h"

namespace {

// Width and height from a PNG's IHDR chunk (the target does not see cairo, which documents/
// links privately); zero when the bytes are no PNG.
std::pair<uint32_t, uint32_t> PngSides(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 ||
      png.compare(12, 4, "IHDR") != 0) {
    return {0, 0};
  }
  const auto read = [&](size_t at) {
    uint32_t value = 0;
    for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(png[at + i]);
    return value;
  };
  return {read(16), read(20)};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace esign;
  if (size == 0) return 0;
  static constexpr const char* kTypes[] = {"image/png", "image/jpeg"};
  const std::string type = kTypes[data[0] % 2];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto logo = documents::NormalizedLogo(bytes, type);
  if (logo) {
    const auto [width, height] = PngSides(*logo);
    const auto max_side = static_cast<uint32_t>(documents::kMaxLogoSide);
    if (width == 0 || height == 0 || width > max_side || height > max_side) __builtin_trap();
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
