// PageImages: the pages of a stored PDF as PNG images, for readers whose browser shows no PDF
// (the hosted signing page draws them itself). Poppler (GLib binding) lays each page onto a
// cairo image surface at one of a few fixed widths; PNGs are kept in a bounded in-memory LRU
// keyed by the document's SHA-256, the page and the width, so a page is rendered once however
// many signers and reloads ask for it. A stored blob never changes under its SHA-256, so a cached
// image is never stale.
//
// Limits: widths are kWidths only (a client cannot ask for a 100000-pixel page), the cache holds
// at most `cache_bytes` of PNGs, at most `max_concurrent_renders` pages are rendered at once
// (others wait), and documents with more than kMaxPages pages are refused.
//
// Thread safety: every method may be called from any thread at once. Rendering is CPU-bound
// (tens of milliseconds a page): callers keep it off the I/O threads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domain/result.h"
#include "eventstore/event_store.h"

namespace esign::documents {

struct PageImagesOptions {
  // The most bytes of PNG kept in memory; the least recently used pages go first. An image larger
  // than this is served but not kept. Default: 64 MiB.
  size_t cache_bytes = size_t{64} << 20;
  // Pages rendered at the same time; more requests wait for a turn. Default: 2.
  int max_concurrent_renders = 2;
  // Documents whose page sizes are remembered (a few numbers each). Default: 256.
  size_t max_cached_documents = 256;
};

// A page's size in PDF points (1/72 inch), as the PDF declares it.
struct PageSize {
  double width = 0;
  double height = 0;
};

struct PageImagesStats {
  uint64_t renders = 0;      // pages rendered by poppler
  uint64_t cache_hits = 0;   // images answered from the cache
  size_t cached_bytes = 0;   // PNG bytes held now
  size_t cached_images = 0;  // images held now
};

class PageImages {
 public:
  // The widths, in pixels, a page may be rendered at; the page's height follows its aspect.
  static constexpr std::array<int, 4> kWidths = {400, 800, 1200, 1600};
  static constexpr int kMaxPages = 1000;

  // `blobs` holds the PDFs by SHA-256 and must outlive this object.
  explicit PageImages(const eventstore::BlobStore& blobs, PageImagesOptions options = {});

  static bool IsSupportedWidth(int width);

  // Every page's size, in order (the count is their number). kNotFound when no blob has that
  // SHA-256; kValidationFailed when the blob is not a PDF poppler can open, or has more than
  // kMaxPages pages.
  Result<std::vector<PageSize>> Pages(const std::string& sha256) const;

  // Page `page` (1-based) as PNG bytes, `width` pixels wide on a white background. kNotFound for a
  // page outside 1..page count (or an unknown document); kValidationFailed for a width not in
  // kWidths; else as Pages.
  Result<std::string> Png(const std::string& sha256, int64_t page, int width) const;

  PageImagesStats Stats() const;

 private:
  struct CachedImage {
    std::string key;
    std::string png;
  };

  Result<std::string> Render(const std::string& sha256, int page, int width) const;
  std::optional<std::string> Lookup(const std::string& key) const;
  void Remember(const std::string& key, const std::string& png) const;

  const eventstore::BlobStore& blobs_;
  const PageImagesOptions options_;
  mutable std::counting_semaphore<> render_slots_;

  mutable std::mutex mutex_;
  // Most recently used first; index_ points into it.
  mutable std::list<CachedImage> images_;
  mutable std::unordered_map<std::string, std::list<CachedImage>::iterator> index_;
  mutable size_t cached_bytes_ = 0;
  mutable std::unordered_map<std::string, std::vector<PageSize>> page_sizes_;
  mutable uint64_t renders_ = 0;
  mutable uint64_t cache_hits_ = 0;
};

}  // namespace esign::documents
