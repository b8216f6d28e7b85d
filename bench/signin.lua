-- POST /v1/signin round-robin over $BENCH_USERS seeded users s1@bench.test … sN@bench.test, all with password
-- $BENCH_PASSWORD (scripts/bench seeds them confirmed), so neither the per-email limit nor lockout comes into play.
dofile("bench/report.lua")

local users = tonumber(os.getenv("BENCH_USERS") or "1")
local password = os.getenv("BENCH_PASSWORD") or ""
local counter = 0
local headers = { ["Content-Type"] = "application/json" }

function request()
   counter = counter + 1
   local body = string.format('{"email":"s%d@bench.test","password":"%s"}', counter % users + 1, password)
   return wrk.format("POST", "/v1/signin", headers, body)
end
