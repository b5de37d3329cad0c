// PageImages: a real contract PDF (pdf_renderer.h) in an in-memory blob store, drawn by poppler.
// The page count agrees with pdfinfo, the images are PNGs of the asked width with ink on them, a
// second request is answered from the cache without drawing again, the cache stays within its
// bytes, and pages, widths and documents outside the limits get their documented errors.
#include "documents/page_images.h"

#include <cairo.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "documents/pdf_renderer.h"
#include "eventstore/memory_event_store.h"
#include "pdf_fixtures.h"

namespace esign::documents {
namespace {

using pdf_test::LoadTemplate;
using pdf_test::PdfFile;
using pdf_test::ServicesState;

constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

uint32_t BigEndian32(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

struct Dimensions {
  uint32_t width = 0;
  uint32_t height = 0;
};

// From the IHDR chunk, which a PNG must begin with.
Dimensions PngDimensions(const std::string& png) {
  EXPECT_GE(png.size(), 24U);
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  return {BigEndian32(png, 16), BigEndian32(png, 20)};
}

// The share of pixels that are not near-white, decoded by cairo (an independent PNG reader
// from the writer's point of view: it checks the stream's CRCs and zlib data).
double InkShare(const std::string& png) {
  struct Reader {
    const std::string* bytes;
    size_t at = 0;
  } reader{&png};
  cairo_surface_t* surface = cairo_image_surface_create_from_png_stream(
      [](void* closure, unsigned char* data, unsigned int length) {
        auto* r = static_cast<Reader*>(closure);
        if (r->at + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
        std::copy_n(r->bytes->data() + r->at, length, data);
        r->at += length;
        return CAIRO_STATUS_SUCCESS;
      },
      &reader);
  EXPECT_EQ(cairo_surface_status(surface), CAIRO_STATUS_SUCCESS);
  const int width = cairo_image_surface_get_width(surface);
  const int height = cairo_image_surface_get_height(surface);
  const int stride = cairo_image_surface_get_stride(surface);
  const unsigned char* data = cairo_image_surface_get_data(surface);
  size_t ink = 0;
  for (int y = 0; y < height; ++y) {
    const auto* row = reinterpret_cast<const uint32_t*>(data + static_cast<ptrdiff_t>(y) * stride);
    for (int x = 0; x < width; ++x) {
      const uint32_t p = row[x];
      const int sum = static_cast<int>(((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff));
      if (sum < 3 * 200) ++ink;
    }
  }
  cairo_surface_destroy(surface);
  return width * height == 0 ? 0 : static_cast<double>(ink) / (width * height);
}

class PageImagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = eventstore::MemoryEventStore::Create();
    ASSERT_TRUE(store);
    store_ = std::move(*store);
    const Template tmpl = LoadTemplate("services-agreement.json");
    // Enough milestones for the table to run over several pages.
    auto pdf = RenderContractPdf(tmpl, tmpl.versions.front(), ServicesState(tmpl, 80));
    ASSERT_TRUE(pdf) << pdf.error().message;
    pdf_ = *pdf;
    auto sha256 = store_->blobs().Put(pdf_);
    ASSERT_TRUE(sha256);
    sha256_ = *sha256;
  }

  std::unique_ptr<eventstore::MemoryEventStore> store_;
  std::string pdf_;
  std::string sha256_;
};

TEST_F(PageImagesTest, CountsThePagesAsPdfinfoDoes) {
  PageImages images(store_->blobs());
  auto pages = images.Pages(sha256_);
  ASSERT_TRUE(pages) << pages.error().message;
  const int expected = PdfFile(pdf_).PageCount();
  ASSERT_GE(expected, 2);
  EXPECT_EQ(static_cast<int>(pages->size()), expected);
  for (const auto& size : *pages) {  // A4
    EXPECT_NEAR(size.width, 595.28, 0.5);
    EXPECT_NEAR(size.height, 841.89, 0.5);
  }
}

TEST_F(PageImagesTest, DrawsAPngOfTheAskedWidthWithInkOnIt) {
  PageImages images(store_->blobs());
  for (int width : PageImages::kWidths) {
    const auto start = std::chrono::steady_clock::now();
    auto png = images.Png(sha256_, 1, width);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(png) << png.error().message;
    EXPECT_EQ(png->substr(0, 8), kPngSignature);
    const Dimensions dimensions = PngDimensions(*png);
    EXPECT_EQ(dimensions.width, static_cast<uint32_t>(width));
    EXPECT_EQ(dimensions.height, static_cast<uint32_t>(std::lround(841.89 * width / 595.28)));
    const double ink = InkShare(*png);
    EXPECT_GT(ink, 0.005) << "a page with text has dark pixels";
    EXPECT_LT(ink, 0.5) << "the background is white";
    std::printf("page 1 at %d px: %zu bytes, rendered in %.1f ms, ink %.3f\n", width, png->size(),
                std::chrono::duration<double, std::milli>(elapsed).count(), ink);
  }
  EXPECT_EQ(images.Stats().renders, PageImages::kWidths.size());
}

TEST_F(PageImagesTest, ASecondRequestIsAnsweredFromTheCacheWithoutDrawing) {
  PageImages images(store_->blobs());
  auto first = images.Png(sha256_, 2, 800);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(images.Stats().renders, 1U);
  const auto start = std::chrono::steady_clock::now();
  auto second = images.Png(sha256_, 2, 800);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, *first);
  const PageImagesStats stats = images.Stats();
  EXPECT_EQ(stats.renders, 1U);
  EXPECT_EQ(stats.cache_hits, 1U);
  EXPECT_EQ(stats.cached_images, 1U);
  EXPECT_EQ(stats.cached_bytes, first->size());
  std::printf("cache hit: %.3f ms\n", std::chrono::duration<double, std::milli>(elapsed).count());
  // Another page or width is another image.
  ASSERT_TRUE(images.Png(sha256_, 1, 800));
  ASSERT_TRUE(images.Png(sha256_, 2, 400));
  EXPECT_EQ(images.Stats().renders, 3U);
}

TEST_F(PageImagesTest, TheCacheKeepsWithinItsBytesAndDropsTheLeastRecentlyUsed) {
  PageImages probe(store_->blobs());
  auto one = probe.Png(sha256_, 1, 400);
  auto two = probe.Png(sha256_, 2, 400);
  ASSERT_TRUE(one && two);
  // Room for one of the two images only.
  const size_t limit = std::max(one->size(), two->size()) + std::min(one->size(), two->size()) / 2;
  PageImages images(store_->blobs(), {.cache_bytes = limit});
  ASSERT_TRUE(images.Png(sha256_, 1, 400));
  ASSERT_TRUE(images.Png(sha256_, 2, 400));  // drops page 1
  EXPECT_EQ(images.Stats().cached_images, 1U);
  EXPECT_LE(images.Stats().cached_bytes, limit);
  ASSERT_TRUE(images.Png(sha256_, 2, 400));  // still there
  EXPECT_EQ(images.Stats().renders, 2U);
  ASSERT_TRUE(images.Png(sha256_, 1, 400));  // drawn again
  EXPECT_EQ(images.Stats().renders, 3U);
  // An image larger than the whole cache is served, not kept.
  PageImages tiny(store_->blobs(), {.cache_bytes = 100});
  ASSERT_TRUE(tiny.Png(sha256_, 1, 400));
  EXPECT_EQ(tiny.Stats().cached_bytes, 0U);
}

TEST_F(PageImagesTest, ConcurrentRequestsForOnePageGetTheSameBytes) {
  PageImages images(store_->blobs(), {.max_concurrent_renders = 1});
  std::vector<std::string> results(6);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      auto png = images.Png(sha256_, 1, 400);
      if (png) results[i] = *png;
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& r : results) EXPECT_EQ(r, results.front());
  EXPECT_FALSE(results.front().empty());
  // One slot: whoever waited finds the page drawn by the first.
  EXPECT_EQ(images.Stats().renders, 1U);
}

// Two pages drawn at once (the default) give the bytes each gives drawn alone.
TEST_F(PageImagesTest, PagesDrawnInParallelMatchPagesDrawnAlone) {
  PageImages alone(store_->blobs(), {.max_concurrent_renders = 1});
  PageImages parallel(store_->blobs(), {.max_concurrent_renders = 2});
  const std::vector<std::pair<int, int>> jobs = {{1, 400}, {2, 400}, {1, 800}, {2, 800}};
  std::vector<std::string> results(jobs.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < jobs.size(); ++i) {
    threads.emplace_back([&, i] {
      auto png = parallel.Png(sha256_, jobs[i].first, jobs[i].second);
      if (png) results[i] = *png;
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto expected = alone.Png(sha256_, jobs[i].first, jobs[i].second);
    ASSERT_TRUE(expected);
    EXPECT_EQ(results[i], *expected) << "page " << jobs[i].first << " at " << jobs[i].second;
  }
  EXPECT_EQ(parallel.Stats().renders, jobs.size());
}

TEST_F(PageImagesTest, PagesOutsideTheDocumentAreNotFound) {
  PageImages images(store_->blobs());
  auto pages = images.Pages(sha256_);
  ASSERT_TRUE(pages);
  const auto count = static_cast<int64_t>(pages->size());
  for (int64_t page : {int64_t{0}, int64_t{-1}, count + 1, int64_t{1'000'000'000'000}}) {
    auto png = images.Png(sha256_, page, 800);
    ASSERT_FALSE(png) << page;
    EXPECT_EQ(png.error().code, ErrorCode::kNotFound) << page;
  }
  EXPECT_TRUE(images.Png(sha256_, count, 800));
  EXPECT_EQ(images.Stats().renders, 1U);
}

TEST_F(PageImagesTest, OnlyTheFixedWidthsAreDrawn) {
  PageImages images(store_->blobs());
  for (int width : {0, -800, 799, 1601, 100000}) {
    auto png = images.Png(sha256_, 1, width);
    ASSERT_FALSE(png) << width;
    EXPECT_EQ(png.error().code, ErrorCode::kValidationFailed) << width;
  }
  EXPECT_EQ(images.Stats().renders, 0U);
}

TEST_F(PageImagesTest, UnknownDocumentsAndBlobsThatAreNotPdfsAreRefused) {
  PageImages images(store_->blobs());
  auto unknown = images.Pages(std::string(64, 'a'));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kNotFound);
  auto not_pdf = store_->blobs().Put("this is not a PDF");
  ASSERT_TRUE(not_pdf);
  auto pages = images.Pages(*not_pdf);
  ASSERT_FALSE(pages);
  EXPECT_EQ(pages.error().code, ErrorCode::kValidationFailed);
  auto png = images.Png(*not_pdf, 1, 800);
  ASSERT_FALSE(png);
  EXPECT_EQ(png.error().code, ErrorCode::kValidationFailed);
}

}  // namespace
}  // namespace esign::documents
