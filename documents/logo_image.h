// An organization's logo for its signing pages and e-mails (DESIGN 23): PNG or JPEG only (an SVG
// can carry script), at most kMaxLogoBytes and kMaxLogoSide pixels a side, decoded and written
// out again as a plain PNG, so that nothing of the uploaded file but its pixels is ever served:
// no metadata, no trailing bytes, no second image hidden in a chunk.
// Pure functions; any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "domain/result.h"

namespace esign::documents {

inline constexpr size_t kMaxLogoBytes = size_t{256} * 1024;
inline constexpr int kMaxLogoSide = 1024;

// The logo re-encoded as PNG. kPayloadTooLarge above kMaxLogoBytes; kValidationFailed (field
// "logo") for another media type, bytes that are not what `media_type` says, or an image wider
// or taller than kMaxLogoSide.
Result<std::string> NormalizedLogo(std::string_view bytes, std::string_view media_type);

}  // namespace esign::documents
