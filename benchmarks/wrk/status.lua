-- GET /api/v1/contracts/{id}/status over a set of existing contracts; QUERY (e.g. "?asOf=42")
-- is appended when set.
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")
local ids, headers, i
local query = os.getenv("QUERY") or ""

init = function(args)
  ids = common.read_ids()
  headers = common.headers()
  i = math.random(#ids)
end

request = function()
  i = i % #ids + 1
  return wrk.format("GET", "/api/v1/contracts/" .. ids[i] .. "/status" .. query, headers)
end
