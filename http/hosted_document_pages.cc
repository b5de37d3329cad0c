#include "http/hosted_document_pages.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

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

// A box in points on a page of `pages` as fractions of that page, for an overlay that scales with
// the image; nothing for a page the document does not have.
std::optional<boost::json::object> Fractions(int64_t page, double x, double y, double width,
                                             double height,
                                             const std::vector<documents::PageSize>& pages) {
  if (page < 1 || page > static_cast<int64_t>(pages.size())) return std::nullopt;
  const documents::PageSize& size = pages[page - 1];
  if (size.width <= 0 || size.height <= 0) return std::nullopt;
  return boost::json::object{{"page", page},
                             {"left", Rounded(x / size.width)},
                             {"top", Rounded(y / size.height)},
                             {"width", Rounded(width / size.width)},
                             {"height", Rounded(height / size.height)}};
}

// The signer's signature places (their prepared role's), where the sealed PDF shows their
// signature.
boost::json::array SignatureBoxes(const LoadedSession& loaded,
                                  const std::vector<documents::PageSize>& pages) {
  boost::json::array boxes;
  for (const auto& role : loaded.contract.prepared_roles) {
    if (role.participant_id != loaded.session.participant_id ||
        role.action != ParticipantAction::kSign) {
      continue;
    }
    for (const auto& box : role.signature_placement) {
      if (auto place = Fractions(box.page, box.x, box.y, box.width, box.height, pages)) {
        boxes.push_back(std::move(*place));
      }
    }
  }
  return boxes;
}

// Every field placed for this signer, on its page of the composed PDF (a contract from uploads)
// or of the rendered one (its template roles' fields); other signers' fields are theirs.
boost::json::array PlacedFields(const LoadedSession& loaded,
                                const std::vector<documents::PageSize>& pages) {
  boost::json::array fields;
  const ContractState& contract = loaded.contract;
  for (const PlacedField& field : contract.fields) {
    if (field.participant_id != loaded.session.participant_id) continue;
    const int64_t page =
        ComposedPage(contract.documents, static_cast<size_t>(field.document_index), field.box.page);
    auto place =
        Fractions(page, field.box.x, field.box.y, field.box.width, field.box.height, pages);
    if (!place) continue;
    place->emplace("fieldId", field.field_id);
    place->emplace("type", ToString(field.type));
    place->emplace("required", field.required);
    if (!field.name.empty()) place->emplace("name", field.name);
    if (field.rules) {
      // What the page needs to draw the input and check it as the service will.
      for (auto& [key, rule] : SignerFieldRulesToJson(*field.rules)) place->emplace(key, rule);
      place->emplace("readOnly", field.read_only);
    }
    if (!field.value.is_null()) place->emplace("value", field.value);
    fields.push_back(std::move(*place));
  }
  return fields;
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
                                 {"signatureBoxes", SignatureBoxes(loaded, *pages)},
                                 {"fields", PlacedFields(loaded, *pages)}})
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
