// GET /contracts, /contracts/{id}, /contracts/{id}/status: served from the projections, which
// hold each representation serialized, so a read copies bytes instead of building JSON. Reading
// one contract is two point reads of committed rows, short enough to run on the I/O thread; a
// listing scans and goes to the worker pool. With ?asOf= a contract is rebuilt from its stream
// (projections/contract_as_of.h), which reads the log: the worker pool as well.
#include <boost/json.hpp>

#include "http/contract_routes.h"
#include "projections/contract_as_of.h"
#include "projections/contract_queries.h"
#include "projections/list_query.h"
#include "projections/list_scan.h"
#include "projections/read_your_writes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

ApiResult ListContracts(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto allowed = RequirePermission(request, "contracts:read"); !allowed) {
    return std::unexpected(allowed.error());
  }
  auto query = projections::ParseListQuery(request.query);
  if (!query) return std::unexpected(query.error());
  // A q that the text index answers waits for it too, when the caller wrote after its position.
  const projections::ReadsFrom reads = projections::UsesTextIndex(*query)
                                           ? projections::ReadsFrom::kViewsAndText
                                           : projections::ReadsFrom::kViews;
  if (auto own = deps.read_your_writes.AwaitOwnWrites(request.Caller().client_id,
                                                      request.Caller().organization_id, reads);
      !own) {
    return std::unexpected(own.error());
  }
  auto page = deps.queries.List(ReaderOf(request), *query);
  if (!page) return std::unexpected(page.error());
  std::string body = "{\"items\":[";
  for (size_t i = 0; i < page->items.size(); ++i) {
    if (i > 0) body.push_back(',');
    body += page->items[i].json;
  }
  body += "],\"nextCursor\":";
  body += page->next_cursor ? boost::json::serialize(boost::json::value(*page->next_cursor))
                            : std::string("null");
  body.push_back('}');
  return ApiResponse{200, std::move(body), "application/json", {}};
}

// A row as the response: the stored JSON, with the version as ETag.
ApiResult RowResponse(Result<projections::ContractRow> row) {
  if (!row) return std::unexpected(row.error());
  return ApiResponse{200, std::move(row->json), "application/json", {}}.WithHeader(
      "ETag", VersionETag(row->version));
}

enum class Representation { kContract, kStatus };

// ?asOf=: the representation of the contract as it stood then. The reader's grant is checked
// first, exactly as for a live read, so a contract it may not see answers what it answers today
// whatever asOf says; a point before its organization's access began answers the same.
// X-Log-Position names the contract's last event at that point.
ApiResult AsOfResponse(const ContractRoutesDeps& deps, const ApiRequest& request,
                       Representation representation) {
  const std::string_view id = request.params.Get("id");
  const projections::QueryActor reader = ReaderOf(request);
  if (auto readable = deps.queries.Get(reader, id); !readable) {
    return std::unexpected(readable.error());
  }
  size_t given = 0;
  for (const auto& [name, value] : request.query) given += name == "asOf" ? 1 : 0;
  if (given > 1) {
    return Fail(ErrorCode::kValidationFailed, "invalid query parameters", "asOf",
                "given more than once");
  }
  auto point = projections::ParseLogPoint(*request.Query("asOf"));
  if (!point) return std::unexpected(point.error());
  auto then = deps.as_of.ReadableAt(id, *point, reader.organization_id);
  if (!then) return std::unexpected(then.error());
  return ApiResponse::Json(200, representation == Representation::kContract
                                    ? ContractToJson(then->state)
                                    : ContractStatusToJson(then->state))
      .WithHeader("ETag", VersionETag(then->state.version))
      .WithHeader("X-Log-Position", std::to_string(then->position.value()));
}

// The live row, or with ?asOf= the contract as it stood then.
ApiResult ReadOne(const ContractRoutesDeps& deps, const ApiRequest& request,
                  Representation representation) {
  if (auto ready = BeginRead(deps, request); !ready) return std::unexpected(ready.error());
  if (request.Query("asOf")) return AsOfResponse(deps, request, representation);
  const projections::QueryActor reader = ReaderOf(request);
  const std::string_view id = request.params.Get("id");
  return RowResponse(representation == Representation::kContract ? deps.queries.Get(reader, id)
                                                                 : deps.queries.Status(reader, id));
}

}  // namespace

void AddContractReadRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps) {
  const std::string base = "/api/v1/contracts";
  // A reader whose own writes are already visible never waits: it may run on the I/O thread,
  // unless it asks for a past state, which replays the log.
  auto caught_up = [deps](const ApiRequest& r) {
    return r.principal &&
           deps.read_your_writes.CaughtUp(r.principal->client_id, r.principal->organization_id) &&
           !r.Query("asOf");
  };
  routes.Add(verb::get, base, {"listContracts", Auth::kBearer, [deps](const ApiRequest& r) {
                                 return ListContracts(deps, r);
                               }});
  routes.Add(verb::get, base + "/{id}",
             {"getContract", Auth::kBearer,
              [deps](const ApiRequest& r) { return ReadOne(deps, r, Representation::kContract); },
              Execution::kInline, caught_up});
  routes.Add(verb::get, base + "/{id}/status",
             {"getContractStatus", Auth::kBearer,
              [deps](const ApiRequest& r) { return ReadOne(deps, r, Representation::kStatus); },
              Execution::kInline, caught_up});
}

}  // namespace esign::http
