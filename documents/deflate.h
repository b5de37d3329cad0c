// zlib-wrapped deflate (PDF's FlateDecode) with libdeflate: several times faster than zlib at the
// same level, and its output no larger. One compressor per thread and level, kept for the
// thread's life (a compressor holds about 0.5 MB of tables).
// Thread safety: safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace esign::documents {

// The default level of the PDFs we write: libdeflate's 6 is about zlib's 6 in size.
inline constexpr int kPdfDeflateLevel = 6;

// `data` compressed in the zlib format (RFC 1950) at `level` (1..12).
std::string ZlibCompress(std::string_view data, int level = kPdfDeflateLevel);

}  // namespace esign::documents
