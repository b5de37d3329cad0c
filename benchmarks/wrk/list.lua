-- GET /api/v1/contracts filtered by status, a page of 20. The same request every time: wrk builds
-- it once from wrk.method, wrk.path and wrk.headers (no Lua per request).
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")

wrk.method = "GET"
wrk.path = "/api/v1/contracts?status=draft&limit=20"
wrk.headers = common.headers()
