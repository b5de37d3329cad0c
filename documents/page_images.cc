#include "documents/page_images.h"

#include <cairo.h>
#include <poppler.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "documents/cairo_handles.h"
#include "documents/png_image.h"

namespace esign::documents {
namespace {

using BytesPtr = std::unique_ptr<GBytes, FreeWith<g_bytes_unref>>;
using ErrorPtr = std::unique_ptr<GError, FreeWith<g_error_free>>;

// A page taller than this many times its width is not a page a reader can read as an image; the
// bound keeps a hostile page size from asking for a huge surface.
constexpr int kMaxAspect = 4;

Result<GPtr<PopplerDocument>> OpenPdf(const std::string& pdf) {
  BytesPtr bytes(g_bytes_new(pdf.data(), pdf.size()));
  GError* raw_error = nullptr;
  GPtr<PopplerDocument> document(poppler_document_new_from_bytes(bytes.get(), nullptr, &raw_error));
  ErrorPtr error(raw_error);
  if (!document) {
    return Fail(ErrorCode::kValidationFailed, std::string("the document is not a readable PDF: ") +
                                                  (error ? error->message : "unknown error"));
  }
  const int count = poppler_document_get_n_pages(document.get());
  if (count < 1 || count > PageImages::kMaxPages) {
    return Fail(ErrorCode::kValidationFailed,
                "the document has " + std::to_string(count) + " pages; at most " +
                    std::to_string(PageImages::kMaxPages) + " can be shown");
  }
  return document;
}

std::string CacheKey(const std::string& sha256, int64_t page, int width) {
  return sha256 + "/" + std::to_string(page) + "/" + std::to_string(width);
}

}  // namespace

PageImages::PageImages(const eventstore::BlobStore& blobs, PageImagesOptions options)
    : blobs_(blobs),
      options_(options),
      render_slots_(std::max(1, options.max_concurrent_renders)) {}

bool PageImages::IsSupportedWidth(int width) {
  return std::find(kWidths.begin(), kWidths.end(), width) != kWidths.end();
}

Result<std::vector<PageSize>> PageImages::Pages(const std::string& sha256) const {
  {
    std::lock_guard lock(mutex_);
    if (auto it = page_sizes_.find(sha256); it != page_sizes_.end()) return it->second;
  }
  auto pdf = blobs_.Get(sha256);
  if (!pdf) return std::unexpected(pdf.error());
  auto document = OpenPdf(*pdf);
  if (!document) return std::unexpected(document.error());
  std::vector<PageSize> sizes;
  const int count = poppler_document_get_n_pages(document->get());
  for (int i = 0; i < count; ++i) {
    GPtr<PopplerPage> page(poppler_document_get_page(document->get(), i));
    PageSize size;
    if (page) poppler_page_get_size(page.get(), &size.width, &size.height);
    sizes.push_back(size);
  }
  std::lock_guard lock(mutex_);
  // A handful of numbers per document; forgetting them all at the bound is simpler than an LRU
  // and costs one re-read of each document still in use.
  if (page_sizes_.size() >= options_.max_cached_documents) page_sizes_.clear();
  page_sizes_[sha256] = sizes;
  return sizes;
}

Result<std::string> PageImages::Png(const std::string& sha256, int64_t page, int width) const {
  if (!IsSupportedWidth(width)) {
    return Fail(ErrorCode::kValidationFailed, "width must be 400, 800, 1200 or 1600", "width",
                std::to_string(width));
  }
  auto sizes = Pages(sha256);
  if (!sizes) return std::unexpected(sizes.error());
  if (page < 1 || page > static_cast<int64_t>(sizes->size())) {
    return Fail(ErrorCode::kNotFound,
                "the document has " + std::to_string(sizes->size()) + " pages", "page",
                std::to_string(page));
  }
  const std::string key = CacheKey(sha256, page, width);
  if (auto png = Lookup(key)) return *png;
  render_slots_.acquire();
  // Another request may have rendered the same page while this one waited for a slot.
  auto cached = Lookup(key);
  auto png = cached ? Result<std::string>(std::move(*cached))
                    : Render(sha256, static_cast<int>(page), width);
  // Kept before the slot is given back, so whoever takes it next finds the page.
  if (png && !cached) Remember(key, *png);
  render_slots_.release();
  return png;
}

Result<std::string> PageImages::Render(const std::string& sha256, int page, int width) const {
  auto pdf = blobs_.Get(sha256);
  if (!pdf) return std::unexpected(pdf.error());
  auto document = OpenPdf(*pdf);
  if (!document) return std::unexpected(document.error());
  GPtr<PopplerPage> poppler_page(poppler_document_get_page(document->get(), page - 1));
  if (!poppler_page)
    return Fail(ErrorCode::kNotFound, "no such page", "page", std::to_string(page));
  double page_width = 0;
  double page_height = 0;
  poppler_page_get_size(poppler_page.get(), &page_width, &page_height);
  if (page_width <= 0 || page_height <= 0 || page_height > kMaxAspect * page_width) {
    return Fail(ErrorCode::kValidationFailed, "the page's size cannot be shown as an image", "page",
                std::to_string(page));
  }
  const double scale = width / page_width;
  const int height = std::max(1, static_cast<int>(std::lround(page_height * scale)));
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height));
  CairoPtr cr(cairo_create(surface.get()));
  cairo_set_source_rgb(cr.get(), 1, 1, 1);
  cairo_paint(cr.get());
  cairo_scale(cr.get(), scale, scale);
  poppler_page_render(poppler_page.get(), cr.get());
  cr.reset();
  cairo_surface_flush(surface.get());
  std::optional<std::string> png = EncodePng(surface.get());
  if (!png) return Fail(ErrorCode::kInternal, "cairo could not draw the page image");
  std::lock_guard lock(mutex_);
  ++renders_;
  return std::move(*png);
}

std::optional<std::string> PageImages::Lookup(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  images_.splice(images_.begin(), images_, it->second);
  ++cache_hits_;
  return it->second->png;
}

void PageImages::Remember(const std::string& key, const std::string& png) const {
  if (png.size() > options_.cache_bytes) return;
  std::lock_guard lock(mutex_);
  if (index_.contains(key)) return;
  while (!images_.empty() && cached_bytes_ + png.size() > options_.cache_bytes) {
    cached_bytes_ -= images_.back().png.size();
    index_.erase(images_.back().key);
    images_.pop_back();
  }
  images_.push_front(CachedImage{key, png});
  index_.emplace(key, images_.begin());
  cached_bytes_ += png.size();
}

PageImagesStats PageImages::Stats() const {
  std::lock_guard lock(mutex_);
  return {.renders = renders_,
          .cache_hits = cache_hits_,
          .cached_bytes = cached_bytes_,
          .cached_images = images_.size()};
}

}  // namespace esign::documents
