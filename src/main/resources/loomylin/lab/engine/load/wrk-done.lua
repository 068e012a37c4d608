-- Loomylin's bench: after the run, one line wrk's report does not give: counts and percentiles from
-- wrk's own HdrHistogram (latency in microseconds).
done = function(summary, latency, requests)
   local e = summary.errors
   io.write(string.format("loomylin-wrk requests=%d duration_us=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d mean_us=%d\n",
      summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, math.floor(latency.mean)))
end
