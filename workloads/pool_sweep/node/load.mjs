// The load of `sweep-pool --app`, `doctor` and `probe-cost`: open-loop requests to URL, RATE a
// second on average for DURATION seconds, each sent when it is due whether or not earlier ones
// have answered (a keep-alive agent opens another connection when every one is busy), so a slow
// server cannot slow the offered load down, and each latency runs from the moment the request was
// due. ARRIVALS says when requests fall due:
//   poisson  at independent random moments (exponential gaps, seeded by SEED: the same moments for
//            every pool size of a sweep), as requests from many independent users arrive. Bursts
//            then queue behind one another, which is what a pool that is too small makes users
//            wait for.
//   fixed    every 1/RATE seconds exactly. A server busy 80% of the time then never has two
//            requests at once, and a pool of one thread looks as good as any (docs/pool-sweep.md).
// No load tool on npm sends random arrivals (loadtest and autocannon pace requests on a fixed
// timer or per connection), so the moments are chosen here and the requests are Node's own
// http client's. Bounded: RATE x DURATION requests, DURATION + DRAIN seconds at most, TIMEOUT ms
// per request (then an error, `timeout`). Prints one JSON line, with when sending began
// (CLOCK_MONOTONIC ms, the clock of the pool probe's samples) so the program's own measurements
// can be cut to the load.
//
//   node load.mjs URL RATE DURATION_S DRAIN_S TIMEOUT_MS ARRIVALS SEED
//   node load.mjs --moments RATE DURATION_S ARRIVALS SEED    (when each request falls due, in ms)
import http from 'node:http';

function generator(seed) {  // mulberry32: small, seeded, uniform in (0, 1)
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
}

// RATE x DURATION moments within the duration. Poisson: that many moments uniform at random in it,
// sorted, which is a Poisson process of that rate given how many arrived (its gaps are
// exponential), so the offered rate is the one asked for and the last request is due within the
// duration, as with the timer.
export function moments(rate, duration, arrivals, seed) {
  const count = Math.round(rate * duration);
  if (arrivals !== 'poisson') return Array.from({ length: count }, (_, i) => i * 1000 / rate);
  const uniform = generator(seed);
  return Array.from({ length: count }, () => uniform() * duration * 1000).sort((a, b) => a - b);
}

function nearestRank(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)] : null;
}

function send(url, agent, timeout, dueAt, done) {
  let settled = false;  // a request ends once: an answer, or its first error
  const end = (latency, error) => {
    if (!settled) done(latency, error);
    settled = true;
  };
  const request = http.get(url, { agent, timeout }, (response) => {
    response.resume();
    response.on('end', () => end(performance.now() - dueAt, response.statusCode >= 400 ? String(response.statusCode) : null));
    response.on('error', (error) => end(null, error.code || 'error'));
  });
  request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
  request.on('error', (error) => end(null, error.code || 'error'));
}

async function drive(url, rate, duration, drain, timeout, arrivals, seed) {
  const due = moments(rate, duration, arrivals, seed);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const latencies = [];
  const errorCodes = {};
  let answered = 0;
  const sendingFrom = Number(process.hrtime.bigint()) / 1e6;
  const start = performance.now();
  const finished = new Promise((resolve) => {
    if (!due.length) resolve();
    const done = (latency, error) => {
      if (error) errorCodes[error] = (errorCodes[error] || 0) + 1;
      else latencies.push(latency);
      answered += 1;
      if (answered === due.length) resolve();
    };
    let next = 0;
    const sendDue = () => {  // every request whose moment has come; then sleep until the next one
      const now = performance.now() - start;
      while (next < due.length && due[next] <= now) send(url, agent, timeout, start + due[next++], done);
      if (next < due.length) setTimeout(sendDue, due[next] - now);
    };
    sendDue();
  });
  const limit = new Promise((resolve) => setTimeout(resolve, (duration + drain) * 1000).unref());
  await Promise.race([finished, limit]);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const errors = Object.values(errorCodes).reduce((a, b) => a + b, 0);
  return {
    requests: due.length,
    sending_from_ms: sendingFrom,
    completed: latencies.length + errors,
    errors,
    error_codes: errorCodes,
    elapsed_s: elapsed,
    percentiles_ms: Object.fromEntries([50, 90, 95, 99].map((p) => [String(p), nearestRank(latencies, p)])),
    max_ms: latencies.length ? latencies[latencies.length - 1] : null,
    mean_ms: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null,
    arrivals,
  };
}

const args = process.argv.slice(2);
if (args[0] === '--moments') {
  const [rate, duration, arrivals, seed] = args.slice(1);
  console.log(JSON.stringify(moments(Number(rate), Number(duration), arrivals, Number(seed))));
} else {
  const [url, rate, duration, drain, timeout, arrivals, seed] = args;
  console.log(JSON.stringify(await drive(url, Number(rate), Number(duration), Number(drain), Number(timeout),
                                         arrivals, Number(seed))));
}
process.exit(0);
