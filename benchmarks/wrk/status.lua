-- GET /api/v1/contracts/{id}/status over a set of existing contracts; QUERY (e.g. "?asOf=42")
-- is appended when set. The requests are formatted once, in init: a request built per call costs
-- wrk several microseconds of Lua on the cores the service shares, which the reference servers of
-- compare.sh (plain wrk, no script) do not pay.
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")
local requests, i
local query = os.getenv("QUERY") or ""

init = function(args)
  local headers = common.headers()
  requests = {}
  for n, id in ipairs(common.read_ids()) do
    requests[n] = wrk.format("GET", "/api/v1/contracts/" .. id .. "/status" .. query, headers)
  end
  i = math.random(#requests)
end

request = function()
  i = i % #requests + 1
  return requests[i]
end
