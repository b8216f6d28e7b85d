-- Shared by every wrk script of scripts/bench: when wrk finishes, append one JSON line with the run's counts and
-- latency percentiles to $BENCH_OUT, labelled $BENCH_LABEL and described by $BENCH_NAME, for `latch-bench report` to read.
-- (done() runs in wrk's main Lua state, where init() never ran: hence the environment, not script arguments.)
function done(summary, latency, requests)
   local out = os.getenv("BENCH_OUT")
   if out == nil then return end
   local file = assert(io.open(out, "a"))
   local errors = summary.errors
   file:write(string.format(
      '{"label":"%s","name":"%s","requests":%d,"duration_us":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latency_us":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\n',
      os.getenv("BENCH_LABEL") or "unlabelled", os.getenv("BENCH_NAME") or "", summary.requests, summary.duration, summary.bytes,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout,
      latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
   file:close()
end
