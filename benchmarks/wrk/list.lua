-- GET /api/v1/contracts filtered by status, a page of 20.
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")
local headers

init = function(args) headers = common.headers() end

request = function()
  return wrk.format("GET", "/api/v1/contracts?status=draft&limit=20", headers)
end
