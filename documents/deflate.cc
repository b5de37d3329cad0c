#include "documents/deflate.h"

#include <libdeflate.h>

#include <array>
#include <memory>
#include <stdexcept>

namespace esign::documents {
namespace {

struct FreeCompressor {
  void operator()(libdeflate_compressor* compressor) const {
    libdeflate_free_compressor(compressor);
  }
};
using CompressorPtr = std::unique_ptr<libdeflate_compressor, FreeCompressor>;

constexpr int kMaxLevel = 12;

libdeflate_compressor* ThisThreadCompressor(int level) {
  thread_local std::array<CompressorPtr, kMaxLevel + 1> compressors;
  CompressorPtr& compressor = compressors.at(static_cast<size_t>(level));
  if (!compressor) compressor.reset(libdeflate_alloc_compressor(level));
  if (!compressor) throw std::bad_alloc();
  return compressor.get();
}

}  // namespace

std::string ZlibCompress(std::string_view data, int level) {
  if (level < 1) level = 1;
  if (level > kMaxLevel) level = kMaxLevel;
  libdeflate_compressor* compressor = ThisThreadCompressor(level);
  std::string out(libdeflate_zlib_compress_bound(compressor, data.size()), '\0');
  const size_t written =
      libdeflate_zlib_compress(compressor, data.data(), data.size(), out.data(), out.size());
  // The bound always fits; 0 would mean it did not.
  if (written == 0) throw std::length_error("libdeflate: the output bound did not fit");
  out.resize(written);
  return out;
}

}  // namespace esign::documents
