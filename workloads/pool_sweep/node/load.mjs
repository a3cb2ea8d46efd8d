// The load of `sweep-pool --app`: loadtest (pinned in scripts/packages/npm/load) sends requests to
// URL on a fixed timer, RATE a second, whether or not earlier ones have answered (with
// requestsPerSecond it opens another connection when every one is busy), so a slow server cannot
// slow the offered load down, and each latency runs from the moment its request was due. Bounded:
// RATE x DURATION requests at most, DURATION + DRAIN seconds at most, TIMEOUT ms per request.
// Prints loadtest's result as one JSON line, with when sending began (CLOCK_MONOTONIC ms, the clock
// of the pool probe's samples) so the program's own measurements can be cut to the load.
//
//   node load.mjs NODE_MODULES URL RATE DURATION_S DRAIN_S TIMEOUT_MS
import { pathToFileURL } from 'node:url';

const [modules, url, rate, duration, drain, timeout] = process.argv.slice(2);
const { loadTest } = await import(pathToFileURL(`${modules}/loadtest/index.js`).href);
const requests = Math.round(Number(rate) * Number(duration));
const sendingFrom = Number(process.hrtime.bigint()) / 1e6;
const result = await loadTest({
  url,
  requestsPerSecond: Number(rate),
  maxRequests: requests,
  maxSeconds: Number(duration) + Number(drain),
  timeout: Number(timeout),
  agentKeepAlive: true,
  quiet: true,
});
console.log(JSON.stringify({
  requests,
  sending_from_ms: sendingFrom,
  completed: result.totalRequests,
  errors: result.totalErrors,
  error_codes: result.errorCodes,
  elapsed_s: result.elapsedSeconds,
  percentiles_ms: result.percentiles,
  max_ms: result.maxLatencyMs,
  mean_ms: result.meanLatencyMs,
}));
