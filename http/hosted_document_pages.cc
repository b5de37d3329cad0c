#include "http/hosted_document_pages.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "documents/page_images.h"

namespace esign::http {
namespace {

constexpr int kDefaultWidth = 800;

// A page number's text: digits only (else 400), and a number too large for int64 is simply past
// the last page (404), like any other number out of range.
Result<int64_t> PageNumber(std::string_view text) {
  if (text.empty() || text.size() > 32 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Fail(ErrorCode::kValidationFailed, "page must be a page number (1, 2, ...)", "page",
                std::string(text.substr(0, 32)));
  }
  int64_t page = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), page);
  if (ec == std::errc::result_out_of_range) return INT64_MAX;
  return page;
}

Result<int> WidthOf(const ApiRequest& request) {
  auto text = request.Query("width");
  if (!text) return kDefaultWidth;
  int width = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), width);
  if (ec != std::errc() || ptr != text->data() + text->size() ||
      !documents::PageImages::IsSupportedWidth(width)) {
    return Fail(ErrorCode::kValidationFailed, "width must be 400, 800, 1200 or 1600", "width",
                std::string(text->substr(0, 32)));
  }
  return width;
}

Result<const documents::PageImages*> Images(const SigningRoutesDeps& deps,
                                            const LoadedSession& loaded) {
  if (loaded.session.document_sha256.empty()) {
    return Fail(ErrorCode::kContractSignedDocumentNotAvailable, "no document is frozen");
  }
  if (deps.page_images == nullptr) {
    return Fail(ErrorCode::kUnavailable, "page images are not available here");
  }
  return deps.page_images;
}

double Rounded(double fraction) { return std::round(fraction * 1e4) / 1e4; }

// The signer's placement boxes as fractions of their page, for an overlay that scales with the
// image. Boxes on pages the document does not have are left out.
boost::json::array SignatureBoxes(const LoadedSession& loaded,
                                  const std::vector<documents::PageSize>& pages) {
  boost::json::array boxes;
  for (const auto& role : loaded.contract.prepared_roles) {
    if (role.participant_id != loaded.session.participant_id ||
        role.action != ParticipantAction::kSign) {
      continue;
    }
    for (const auto& box : role.signature_placement) {
      if (box.page < 1 || box.page > static_cast<int64_t>(pages.size())) continue;
      const documents::PageSize& size = pages[box.page - 1];
      if (size.width <= 0 || size.height <= 0) continue;
      boxes.push_back({{"page", box.page},
                       {"left", Rounded(box.x / size.width)},
                       {"top", Rounded(box.y / size.height)},
                       {"width", Rounded(box.width / size.width)},
                       {"height", Rounded(box.height / size.height)}});
    }
  }
  return boxes;
}

}  // namespace

ApiResult HostedDocumentPages(const SigningRoutesDeps& deps, const LoadedSession& loaded) {
  auto images = Images(deps, loaded);
  if (!images) return std::unexpected(images.error());
  auto pages = (*images)->Pages(loaded.session.document_sha256);
  if (!pages) return std::unexpected(pages.error());
  boost::json::array page_list;
  for (size_t i = 0; i < pages->size(); ++i) {
    page_list.push_back({{"page", i + 1},
                         {"width", Rounded((*pages)[i].width)},
                         {"height", Rounded((*pages)[i].height)}});
  }
  boost::json::array widths;
  for (int width : documents::PageImages::kWidths) widths.push_back(width);
  return ApiResponse::Json(200, {{"documentSha256", loaded.session.document_sha256},
                                 {"pageCount", pages->size()},
                                 {"widths", std::move(widths)},
                                 {"pages", std::move(page_list)},
                                 {"signatureBoxes", SignatureBoxes(loaded, *pages)}})
      .WithHeader("Cache-Control", "no-store");
}

ApiResult HostedDocumentPageImage(const SigningRoutesDeps& deps, const ApiRequest& request,
                                  const LoadedSession& loaded) {
  auto page = PageNumber(request.params.Get("page"));
  if (!page) return std::unexpected(page.error());
  auto width = WidthOf(request);
  if (!width) return std::unexpected(width.error());
  auto images = Images(deps, loaded);
  if (!images) return std::unexpected(images.error());
  const std::string& sha256 = loaded.session.document_sha256;
  const std::string etag =
      "\"" + sha256 + "-p" + std::to_string(*page) + "-w" + std::to_string(*width) + "\"";
  // The private cache of the signer's browser only: the URL holds their link's token.
  const std::string cache_control = "private, max-age=31536000, immutable";
  auto pages = (*images)->Pages(sha256);
  if (!pages) return std::unexpected(pages.error());
  if (*page < 1 || *page > static_cast<int64_t>(pages->size())) {
    return Fail(ErrorCode::kNotFound,
                "the document has " + std::to_string(pages->size()) + " pages", "page",
                std::string(request.params.Get("page").substr(0, 32)));
  }
  if (request.Header("If-None-Match") == etag) {
    return ApiResponse{304, "", "image/png", {}}
        .WithHeader("ETag", etag)
        .WithHeader("Cache-Control", cache_control);
  }
  auto png = (*images)->Png(sha256, *page, *width);
  if (!png) return std::unexpected(png.error());
  return ApiResponse{200, std::move(*png), "image/png", {}}
      .WithHeader("ETag", etag)
      .WithHeader("Cache-Control", cache_control)
      .WithHeader("X-Content-Type-Options", "nosniff");
}

}  // namespace esign::http
