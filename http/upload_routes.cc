#include "http/upload_routes.h"

#include <chrono>
#include <memory>

#include "http/contract_routes.h"
#include "http/multipart_form.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

struct UploadBody {
  std::string_view bytes;
  std::string name;
};

// The PDF and its name from either form of the request; `parts` keeps the multipart parse the
// views point into alive.
Result<UploadBody> ReadUpload(const ApiRequest& request, std::vector<FormPart>& parts) {
  const std::string_view content_type = request.Header("Content-Type");
  const std::string_view body = request.http.body();
  const std::string media_type = MediaTypeOf(content_type);
  if (media_type != "multipart/form-data") {
    if (media_type != "application/pdf") {
      return Fail(ErrorCode::kUnsupportedMediaType,
                  "request bodies must be application/pdf or multipart/form-data", "Content-Type",
                  std::string(content_type));
    }
    return UploadBody{body, std::string(request.Query("name").value_or(""))};
  }
  auto parsed = ParseMultipartForm(content_type, body);
  if (!parsed) return std::unexpected(parsed.error());
  parts = std::move(*parsed);
  const FormPart* file = FindPart(parts, "file");
  if (file == nullptr) {
    return Fail(ErrorCode::kValidationFailed, "the upload has no file", "file",
                "required: a part named file holding the PDF");
  }
  UploadBody upload{file->bytes, file->file_name};
  if (const FormPart* name = FindPart(parts, "name")) upload.name = std::string(name->bytes);
  return upload;
}

ApiResponse DocumentJson(unsigned status, const UploadedDocument& document) {
  return ApiResponse::Json(status, UploadedDocumentToJson(document))
      .WithHeader("Cache-Control", "no-store");
}

Result<UploadedDocument> Readable(const commands::DocumentCommands& documents,
                                  const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, "contracts:read"); !allowed) {
    return std::unexpected(allowed.error());
  }
  return documents.Find(request.Caller().organization_id, request.params.Get("id"));
}

}  // namespace

void AddUploadRoutes(ApiRoutes& routes, commands::DocumentCommands& documents,
                     UploadRoutesOptions options) {
  auto limiter = std::make_shared<RateLimiter>(
      RateLimitOptions{.requests_per_second = options.uploads_per_hour / 3600.0,
                       .burst = options.uploads_per_hour,
                       .max_keys = 100'000});
  routes.Add(
      verb::post, "/api/v1/documents",
      RouteSpec{.operation_id = "uploadDocument",
                .auth = Auth::kBearer,
                .handler = [&documents, limiter](const ApiRequest& request) -> ApiResult {
                  if (auto allowed = RequirePermission(request, "contracts:create"); !allowed) {
                    return std::unexpected(allowed.error());
                  }
                  std::vector<FormPart> parts;
                  auto upload = ReadUpload(request, parts);
                  if (!upload) return std::unexpected(upload.error());
                  auto idempotency = IdempotentRequestOf(request);
                  if (!idempotency) return std::unexpected(idempotency.error());
                  const Admission admission = limiter->Admit(request.Caller().organization_id,
                                                             std::chrono::steady_clock::now());
                  if (!admission.admitted) {
                    const auto seconds = std::max<int64_t>(
                        1, std::chrono::ceil<std::chrono::seconds>(admission.retry_after).count());
                    return RetryLaterResponse(Error::Of(ErrorCode::kRateLimited,
                                                        "the organization uploaded its " +
                                                            std::to_string(admission.limit) +
                                                            " documents of the hour; retry in " +
                                                            std::to_string(seconds) + " seconds"),
                                              request.request_id, seconds);
                  }
                  auto stored = documents.Upload(EventActor(request), upload->bytes,
                                                 std::move(upload->name), *idempotency);
                  // A refused upload stored nothing, and a replay stores nothing new: neither
                  // counts.
                  if (!stored || stored->replayed)
                    limiter->Refund(request.Caller().organization_id);
                  if (!stored) return std::unexpected(stored.error());
                  return DocumentJson(201, stored->document)
                      .WithHeader("Location", "/api/v1/documents/" + stored->document.document_id);
                },
                .execution = Execution::kWorker,
                .body_types = BodyTypes::kPdfOrMultipart});
  routes.Add(verb::get, "/api/v1/documents/{id}",
             RouteSpec{.operation_id = "getDocument",
                       .auth = Auth::kBearer,
                       .handler = [&documents](const ApiRequest& request) -> ApiResult {
                         auto document = Readable(documents, request);
                         if (!document) return std::unexpected(document.error());
                         return DocumentJson(200, *document);
                       }});
  routes.Add(verb::get, "/api/v1/documents/{id}/content",
             RouteSpec{.operation_id = "getDocumentContent",
                       .auth = Auth::kBearer,
                       .handler = [&documents](const ApiRequest& request) -> ApiResult {
                         auto document = Readable(documents, request);
                         if (!document) return std::unexpected(document.error());
                         auto bytes = documents.Content(*document);
                         if (!bytes) return std::unexpected(bytes.error());
                         return ApiResponse{200, std::move(*bytes), "application/pdf", {}}
                             .WithHeader("ETag", "\"" + document->cleaned_sha256 + "\"")
                             .WithHeader("Cache-Control", "private, no-cache")
                             .WithHeader("Content-Disposition",
                                         "inline; filename=\"" + document->document_id + ".pdf\"");
                       }});
}

}  // namespace esign::http
