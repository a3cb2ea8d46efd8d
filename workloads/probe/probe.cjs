'use strict';
// The pool probe, preloaded into any Node program (node --require stallbench-probe.cjs app.js, or
// NODE_OPTIONS="--require ..."): it measures from inside the program what UV_THREADPOOL_SIZE
// changes and Node does not expose.
//
// - Pool queue wait: at random instants it submits a canary, a no-op on libuv's thread pool
//   (stallbench_canary.node, a Node-API addon), and records when the canary was submitted, when
//   it started on a pool thread (the wait any request submitted then had for a thread) and when
//   its completion ran on the main thread. The instants are a Poisson process: Poisson arrivals
//   see time averages, so the waits are an unbiased sample of what pool work arriving at any
//   moment waits; a fixed period could lock onto the program's own periodic work (an interval
//   timer, a load generator's fixed-rate requests) and see the same phase every time.
//   Each canary also says what the pool looked like when it was submitted (idle threads, jobs
//   waiting), read from libuv itself: a canary that found a thread idle and still waited, waited
//   for a core, not for a thread.
// - Pool occupancy: the addon samples libuv's pool at random instants (busy threads, the program's
//   jobs waiting for a thread or for a core) and each period records the means: the pool's
//   utilisation and queue length, which Little's law turns into waiting per request however many
//   short jobs libuv splits a request's work into (zlib, fs streams).
// - Loop delay: how late a 10 ms interval timer fires, with the main thread's CPU time since the
//   previous firing (probe_loop.cjs): the part of a delay the program's own code explains. The
//   per-period figures come from the probe's own timer because monitorEventLoopDelay's reset() drops
//   the interval that spans it (a 200 ms block right after a reset is not recorded);
//   monitorEventLoopDelay itself, never reset, is reported over the whole life of the process in
//   the last record.
// - Event-loop utilisation per period, performance.nodeTiming.uvMetricsInfo where the line has it
//   (Node 22.8 and 20.18 on), how busy the machine's cores were (probe_machine.cjs), and the
//   program's HTTP requests: how many, how long inside it (probe_requests.cjs).
//
// Samples go out as JSON lines (format FORMAT, one object per line, every one with `pid`) to
// STALLBENCH_PROBE_OUT (probe_output.cjs: a file, appended to, fd:N, or none: no file, for the
// exporters alone), flushed every STALLBENCH_PROBE_FLUSH_MS and when the process ends: on exit, on
// SIGTERM, SIGINT or SIGHUP (the program's own handling is left as it was: with no listener of its
// own the process then dies of the signal as before), and on an uncaught exception. A SIGKILL loses
// at most one flush period. Memory is bounded: one period of samples in JavaScript, and the addon's
// ring and outstanding-canary limit.
//
// The module's export is the running probe (one per process, however many times it is required):
// probe.subscribe(fn) calls fn({canaries, loop, period}) once a period with that period's samples
// and record; the exporters (stallbench-probe-otel.cjs, stallbench-probe-prometheus.cjs) use it.
//
// Settings (environment): STALLBENCH_PROBE_OUT (default stallbench-probe-<pid>.jsonl),
// STALLBENCH_PROBE_RATE canaries per second (default 50, 1-1000), STALLBENCH_PROBE_FLUSH_MS
// (default 1000, 100-60000), STALLBENCH_PROBE_ADDON (default: stallbench_canary.node beside this
// file). A bad setting, a Node without Node-API 8 or an output that cannot be written is one line on
// stderr and exit code 2, before the program runs.
const fs = require('fs');
const path = require('path');
const { sampleLoop, RESOLUTION_MS, FIELDS: LOOP_FIELDS } = require('./probe_loop.cjs');
const { countRequests } = require('./probe_requests.cjs');
const { machineBusy } = require('./probe_machine.cjs');
const { Output } = require('./probe_output.cjs');

const FORMAT = 3;
const MIN_NAPI = 8;
const CANARY_FIELDS = ['submitted_ms', 'wait_ms', 'delivery_ms', 'idle_threads', 'jobs_ahead'];
const POOL_SAMPLES_PER_CANARY = 2;  // the pool's occupancy is sampled twice as often as canaries are sent
const RUNNING = Symbol.for('stallbench.probe');

function refuse(message) {
  fs.writeSync(2, `stallbench probe: ${message}\n`);
  process.exit(2);
}

function setting(name, fallback, low, high, what) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < low || value > high) {
    refuse(`${name}=${JSON.stringify(text)} is not ${what}: valid values are ${low}-${high}`);
  }
  return value;
}

const round3 = (v) => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null);

// [submitted, wait, delivery, idle threads, jobs ahead] per canary drained from the addon.
function canarySamples(addon) {
  const raw = addon.drain();
  const stride = addon.fields.length;
  const samples = [];
  for (let i = 0; i < raw.length; i += stride) {
    const [, submitted, started, completed, idle, ahead] = raw.subarray(i, i + stride);
    samples.push([submitted, started - submitted, completed - started, idle, ahead].map(round3));
  }
  return samples;
}

function start() {
  if (!require('worker_threads').isMainThread) return null;  // one probe per process: the pool is per process
  const napi = Number(process.versions.napi || 0);
  if (napi < MIN_NAPI) refuse(`Node ${process.version} has Node-API ${napi}; the probe needs Node-API ${MIN_NAPI} (Node 12.22 or later)`);
  const rate = setting('STALLBENCH_PROBE_RATE', 50, 1, 1000, 'a rate in canaries per second');
  const flushMs = setting('STALLBENCH_PROBE_FLUSH_MS', 1000, 100, 60000, 'a flush period in ms');
  const addonPath = process.env.STALLBENCH_PROBE_ADDON || path.join(__dirname, 'stallbench_canary.node');
  let addon;
  try {
    addon = require(addonPath);
  } catch (error) {
    refuse(`cannot load the canary addon ${addonPath}: ${String(error.message).split('\n')[0]}`);
  }
  let output;
  try {
    output = new Output(process.env.STALLBENCH_PROBE_OUT || `stallbench-probe-${process.pid}.jsonl`);
  } catch (error) {
    refuse(error.message);
  }
  const { performance } = require('perf_hooks');
  const wholeLife = require('perf_hooks').monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  wholeLife.enable();
  addon.startPoolSampler(rate * POOL_SAMPLES_PER_CANARY);
  const requests = countRequests(addon.now);
  const machine = machineBusy();
  const listeners = new Set();

  let loop = [];  // this period's loop samples: [when the timer fired, ms late, main-thread CPU ms]
  let periodStart = addon.now();
  let elu = performance.eventLoopUtilization();
  let ended = false;
  const write = (record) => output.write(record);
  const tell = (news) => {
    for (const listener of listeners) {
      try {
        listener(news);
      } catch (error) {
        // An exporter's failure must not become the program's: it is dropped, said once.
        listeners.delete(listener);
        fs.writeSync(2, `stallbench probe: a subscriber failed and was removed: ${error && error.message}\n`);
      }
    }
  };

  const period = () => {
    const now = addon.now();
    const status = addon.status();
    const metrics = performance.nodeTiming && performance.nodeTiming.uvMetricsInfo;
    const next = performance.eventLoopUtilization();
    const samples = canarySamples(addon);
    if (samples.length) write({ type: 'canaries', samples });
    const pool = addon.poolPeriod();
    const record = {
      type: 'period', t0: periodStart, t1: now,
      loop_delay_ms: loop,
      elu: performance.eventLoopUtilization(next, elu).utilization,
      uv: metrics ? { loop_count: metrics.loopCount, events: metrics.events, events_waiting: metrics.eventsWaiting } : null,
      outstanding: status.outstanding,
      oldest_outstanding_ms: status.oldest_submitted === null ? null : now - status.oldest_submitted,
      lost: status.lost, skipped: status.skipped,
      pool, pool_unreadable: pool === null ? addon.poolUnreadable() || null : null,
      machine_busy: machine(), requests: requests(),
    };
    write(record);
    tell({ canaries: samples, loop, period: record });
    elu = next;
    loop = [];
    periodStart = now;
  };
  const end = (why) => {
    if (ended) return;
    period();
    const ms = (v) => (Number.isFinite(v) ? v / 1e6 : null);
    write({
      type: 'end', t: addon.now(), why,
      pending_submitted_ms: Array.from(addon.pending()),
      whole_life_loop_delay_ms: {
        count: wholeLife.count, min: ms(wholeLife.min), p50: ms(wholeLife.percentile(50)),
        p99: ms(wholeLife.percentile(99)), max: ms(wholeLife.max), mean: ms(wholeLife.mean),
        resolution_ms: RESOLUTION_MS,
      },
    });
    output.flush();
    ended = true;
  };

  // Poisson arrivals: exponential gaps. Timers are unref'd: the probe never keeps a program alive.
  const nextCanary = () => setTimeout(() => {
    addon.submit();
    nextCanary();
  }, -Math.log(1 - Math.random()) * 1000 / rate).unref();
  nextCanary();
  // The first tick comes only once the main module has run: how long that took is start-up, said
  // once (startup_ms), not a loop delay of the running program.
  const cpuSource = sampleLoop(addon, (now) => write({ type: 'startup', t: now, startup_ms: now - periodStart }),
    (sample) => loop.push(sample));
  write({
    type: 'start', format: FORMAT, t: periodStart, ppid: process.ppid, argv: process.argv,
    node: process.version, napi, uv: process.versions.uv,
    pool_size: process.env.UV_THREADPOOL_SIZE || null,
    rate_per_s: rate, pool_samples_per_s: rate * POOL_SAMPLES_PER_CANARY, flush_ms: flushMs,
    loop_resolution_ms: RESOLUTION_MS, canary_fields: CANARY_FIELDS, loop_fields: LOOP_FIELDS,
    main_thread_cpu: cpuSource, clock: 'CLOCK_MONOTONIC ms',
  });
  output.flush();
  setInterval(() => {
    if (ended) return;
    period();
    output.flush();
  }, flushMs).unref();

  process.on('exit', () => end('exit'));
  process.on('uncaughtExceptionMonitor', () => end('uncaughtException'));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    const onSignal = () => {
      end(signal);
      // Without a listener of the program's own, Node would have died of the signal: so do we.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
  return {
    format: FORMAT,
    now: addon.now,
    // fn({canaries, loop, period}) once a period; returns the function that unsubscribes it.
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

// A second require of the probe (another path to it, or the program's own) gets the running one.
module.exports = globalThis[RUNNING] || (globalThis[RUNNING] = start());
