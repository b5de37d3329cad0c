-- POST /api/v1/contracts/{id}/send: each thread sends its own share of the drafts, once each.
package.path = os.getenv("WRK_DIR") .. "/?.lua;" .. package.path
local common = require("common")
local counter = 0
local threads = {}
local ids, headers, next_index, step

setup = function(thread)
  thread:set("offset", counter)
  counter = counter + 1
  table.insert(threads, thread)
  for _, t in ipairs(threads) do t:set("counter_total", counter) end
end

init = function(args)
  ids = common.read_ids()
  headers = common.headers()
  next_index = offset + 1
  step = counter_total or 1
end

request = function()
  local id = ids[next_index]
  next_index = next_index + step
  if id == nil then id = ids[1] end  -- drafts used up: later requests answer 409
  return wrk.format("POST", "/api/v1/contracts/" .. id .. "/send", headers, "")
end
