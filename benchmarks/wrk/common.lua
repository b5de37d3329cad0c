-- Shared by the load scripts: the bearer token comes from the environment (TOKEN).
local M = {}

function M.headers(extra)
  local h = {
    ["Authorization"] = "Bearer " .. os.getenv("TOKEN"),
    ["Content-Type"] = "application/json",
  }
  for k, v in pairs(extra or {}) do h[k] = v end
  return h
end

-- Contract ids, one per line, from the file named by IDS.
function M.read_ids()
  local ids = {}
  for line in io.lines(os.getenv("IDS")) do ids[#ids + 1] = line end
  return ids
end

return M
