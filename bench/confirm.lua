-- POST /v1/confirm, each request with a fresh pre-issued token bench00…01, bench00…02, … (43 characters like a real
-- token; scripts/bench stores their SHA-256 in auth_tokens). Run with one wrk thread (-t1): the counter is per thread.
dofile("bench/report.lua")

local counter = tonumber(os.getenv("BENCH_CONFIRM_FROM") or "0")
local headers = { ["Content-Type"] = "application/json" }

function request()
   counter = counter + 1
   return wrk.format("POST", "/v1/confirm", headers, string.format('{"token":"bench%038d"}', counter))
end
