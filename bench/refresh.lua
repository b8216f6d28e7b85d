-- POST /v1/token/refresh with rotation: every response brings a new refresh token and the one sent is spent.
-- The refresh tokens of $BENCH_TOKENS (one per line, one session each) form a pool: a request takes one out, its
-- response puts the new one back, so each token is used exactly once whatever order the connections answer in.
-- Needs at least as many sessions as connections; run with one wrk thread (-t1).
dofile("bench/report.lua")

local pool = {}
local headers = { ["Content-Type"] = "application/json" }

function init(args)
   for line in io.lines(os.getenv("BENCH_TOKENS")) do
      if #line > 0 then table.insert(pool, line) end
   end
end

function request()
   -- An empty pool (more connections than sessions) sends a token that fails, which shows up as a status error.
   local token = table.remove(pool) or "pool-empty"
   return wrk.format("POST", "/v1/token/refresh", headers, string.format('{"refresh_token":"%s"}', token))
end

function response(status, headers, body)
   if status == 200 then
      local token = string.match(body, '"refresh_token":"([^"]+)"')
      if token then table.insert(pool, token) end
   end
end
