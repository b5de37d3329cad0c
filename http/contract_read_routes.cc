// GET /contracts, /contracts/{id}, /contracts/{id}/status: served from the projections, which
// hold each representation serialized, so a read copies bytes instead of building JSON. Reading
// one contract is two point reads of committed rows, short enough to run on the I/O thread; a
// listing scans and goes to the worker pool.
#include <boost/json.hpp>

#include "http/contract_routes.h"
#include "projections/contract_queries.h"
#include "projections/list_query.h"
#include "projections/read_your_writes.h"

namespace esign::http {
namespace {

using boost::beast::http::verb;

ApiResult ListContracts(const ContractRoutesDeps& deps, const ApiRequest& request) {
  if (auto ready = BeginRead(deps, request); !ready) return std::unexpected(ready.error());
  auto query = projections::ParseListQuery(request.query);
  if (!query) return std::unexpected(query.error());
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

}  // namespace

void AddContractReadRoutes(ApiRoutes& routes, const ContractRoutesDeps& deps) {
  const std::string base = "/api/v1/contracts";
  // A reader whose own writes are already visible never waits: it may run on the I/O thread.
  auto caught_up = [deps](const ApiRequest& r) {
    return r.principal && deps.read_your_writes.CaughtUp(r.principal->client_id);
  };
  routes.Add(verb::get, base, {"listContracts", Auth::kBearer, [deps](const ApiRequest& r) {
                                 return ListContracts(deps, r);
                               }});
  routes.Add(verb::get, base + "/{id}",
             {"getContract", Auth::kBearer,
              [deps](const ApiRequest& r) -> ApiResult {
                if (auto ready = BeginRead(deps, r); !ready) return std::unexpected(ready.error());
                return RowResponse(deps.queries.Get(ReaderOf(r), r.params.Get("id")));
              },
              Execution::kInline, caught_up});
  routes.Add(verb::get, base + "/{id}/status",
             {"getContractStatus", Auth::kBearer,
              [deps](const ApiRequest& r) -> ApiResult {
                if (auto ready = BeginRead(deps, r); !ready) return std::unexpected(ready.error());
                return RowResponse(deps.queries.Status(ReaderOf(r), r.params.Get("id")));
              },
              Execution::kInline, caught_up});
}

}  // namespace esign::http
