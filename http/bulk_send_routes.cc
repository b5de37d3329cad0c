#include "http/bulk_send_routes.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>

#include "base/sha256.h"
#include "domain/csv_table.h"
#include "http/contract_routes.h"
#include "http/signing_request.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

constexpr int64_t kDefaultRowsLimit = 100;
constexpr int64_t kMaxRowsLimit = 500;

ApiResponse JobResponse(unsigned status, const BulkSend& job) {
  return ApiResponse::Json(status, BulkSendToJson(job));
}

// VALIDATION_FAILED (`message`) naming each query parameter not in `known`.
Status OnlyParameters(const ApiRequest& request, std::initializer_list<std::string_view> known,
                      std::string_view message) {
  Details details;
  for (const auto& [name, value] : request.query) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      AddDetail(details, name, "unknown parameter");
    }
  }
  if (details.empty()) return {};
  return Fail(Error{ErrorCode::kValidationFailed, std::string(message), std::move(details)});
}

// The request of a text/csv body: the template from the query, the rows from the CSV.
Result<BulkSendRequest> CsvRequest(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  const std::string& body = request.http.body();
  if (body.size() > kMaxBulkSendCsvBytes) {
    return Fail(ErrorCode::kPayloadTooLarge, "a CSV of a bulk send is at most 5 MiB", "csv",
                std::to_string(body.size()) + " bytes");
  }
  if (auto ok = OnlyParameters(request, {"templateId", "title"}, "invalid bulk send"); !ok) {
    return std::unexpected(ok.error());
  }
  BulkSendRequest out;
  out.template_id = std::string(request.Query("templateId").value_or(""));
  out.title = std::string(request.Query("title").value_or(""));
  if (out.template_id.empty()) {
    return Fail(ErrorCode::kValidationFailed, "invalid bulk send", "templateId",
                "required with a CSV body");
  }
  auto table = ParseCsv(body, CsvLimits{.max_records = kMaxBulkSendRows});
  if (!table) return std::unexpected(table.error());
  auto tmpl = deps.templates ? deps.templates(out.template_id) : nullptr;
  const TemplateVersion* version =
      tmpl != nullptr && tmpl->VisibleTo(request.Caller().organization_id)
          ? tmpl->PublishedVersion()
          : nullptr;
  if (version == nullptr) {
    return Fail(ErrorCode::kTemplateNotFound,
                "template " + out.template_id + " not found, or it has no published version",
                "templateId", "unknown template");
  }
  auto rows = RowsFromCsv(*table, *version);
  if (!rows) return std::unexpected(rows.error());
  out.rows = std::move(*rows);
  return out;
}

Result<BulkSendRequest> JsonRequest(const ApiRequest& request) {
  if (auto ok = OnlyParameters(request, {}, "invalid bulk send"); !ok) {
    return std::unexpected(ok.error());
  }
  auto body = ParseJsonObjectBody(request);
  if (!body) return std::unexpected(body.error());
  return ReadBulkSendRequest(*body);
}

ApiResult CreateJob(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  auto key = IdempotencyKeyOf(request);
  if (!key) return std::unexpected(key.error());
  const bool csv = MediaTypeOf(request.Header("Content-Type")) == "text/csv";
  auto job_request = csv ? CsvRequest(deps, request) : JsonRequest(request);
  if (!job_request) return std::unexpected(job_request.error());
  std::optional<std::string> idempotency_key;
  // The key is bound to the body and, for a CSV, to the template and title it names.
  std::string request_sha256 = Sha256Hex(request.http.body());
  if (*key) {
    idempotency_key = (*key)->key;
    request_sha256 = Sha256Hex((*key)->request_sha256 + "\n" + std::string(request.http.target()));
  }
  auto job = deps.jobs.Create(DomainActor(request.Caller()), *job_request, idempotency_key,
                              request_sha256, EventActor(request));
  if (!job) return std::unexpected(job.error());
  if (deps.wake_runner) deps.wake_runner();
  return JobResponse(202, *job).WithHeader("Location", "/api/v1/bulk-sends/" + job->id);
}

Result<BulkSend> ReadJob(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = RequirePermission(request, "contracts:read"); !ok) {
    return std::unexpected(ok.error());
  }
  return deps.jobs.Read(request.Caller().organization_id, request.params.Get("id"));
}

ApiResult GetJob(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = OnlyParameters(request, {}, "invalid request"); !ok) {
    return std::unexpected(ok.error());
  }
  auto job = ReadJob(deps, request);
  if (!job) return std::unexpected(job.error());
  return JobResponse(200, *job);
}

// A non-negative integer query parameter, or `fallback` when absent.
Result<int64_t> Number(const ApiRequest& request, std::string_view name, int64_t fallback,
                       int64_t min, int64_t max) {
  const auto text = request.Query(name);
  if (!text) return fallback;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < min || value > max) {
    return Fail(ErrorCode::kValidationFailed, "invalid request", std::string(name),
                "an integer from " + std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

ApiResult GetRows(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = OnlyParameters(request, {"from", "limit"}, "invalid request"); !ok) {
    return std::unexpected(ok.error());
  }
  auto from = Number(request, "from", 0, 0, static_cast<int64_t>(kMaxBulkSendRows));
  if (!from) return std::unexpected(from.error());
  auto limit = Number(request, "limit", kDefaultRowsLimit, 1, kMaxRowsLimit);
  if (!limit) return std::unexpected(limit.error());
  auto job = ReadJob(deps, request);
  if (!job) return std::unexpected(job.error());
  boost::json::array items;
  const int64_t end = std::min(job->row_count, *from + *limit);
  for (int64_t row = *from; row < end; ++row) items.push_back(BulkRowToJson(*job, row));
  return ApiResponse::Json(
      200, {{"items", std::move(items)},
            {"nextFrom", end < job->row_count ? boost::json::value(end) : boost::json::value()}});
}

ApiResult CancelJob(const BulkSendRoutesDeps& deps, const ApiRequest& request) {
  if (auto ok = RequireNoMembers(request, "a cancel has no members"); !ok) {
    return std::unexpected(ok.error());
  }
  auto job = deps.jobs.Cancel(DomainActor(request.Caller()), request.params.Get("id"),
                              EventActor(request));
  if (!job) return std::unexpected(job.error());
  if (deps.wake_runner) deps.wake_runner();
  return JobResponse(200, *job);
}

RouteSpec Bearer(std::string operation_id, const BulkSendRoutesDeps& deps,
                 ApiResult (*handler)(const BulkSendRoutesDeps&, const ApiRequest&)) {
  return RouteSpec{
      .operation_id = std::move(operation_id),
      .handler = [deps, handler](const ApiRequest& request) { return handler(deps, request); }};
}

}  // namespace

void AddBulkSendRoutes(ApiRoutes& routes, const BulkSendRoutesDeps& deps) {
  RouteSpec create = Bearer("createBulkSend", deps, CreateJob);
  create.body_types = BodyTypes::kJsonOrCsv;
  routes.Add(verb::post, "/api/v1/bulk-sends", std::move(create));
  routes.Add(verb::get, "/api/v1/bulk-sends/{id}", Bearer("getBulkSend", deps, GetJob));
  routes.Add(verb::get, "/api/v1/bulk-sends/{id}/rows", Bearer("listBulkSendRows", deps, GetRows));
  routes.Add(verb::post, "/api/v1/bulk-sends/{id}/cancel",
             Bearer("cancelBulkSend", deps, CancelJob));
}

}  // namespace esign::http
