// PNG images read with cairo: their size from the header (so that a huge image is refused before
// it is decoded) and the decoded surface. Used for drawn signatures and attached images. Thread
// safety: pure functions; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "documents/cairo_handles.h"

namespace esign::documents {

// Width and height from the PNG signature and its IHDR chunk; nothing when those are missing.
std::optional<std::pair<uint32_t, uint32_t>> PngDimensions(std::string_view png);

// The decoded image; check cairo_surface_status of the result.
SurfacePtr DecodePng(std::string_view png);

// The surface as a PNG file; nothing when cairo cannot write it.
std::optional<std::string> EncodePng(cairo_surface_t* surface);

}  // namespace esign::documents
