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
// - Loop delay: how late a 10 ms interval timer fires, every sample of a period (monitorEventLoopDelay's
//   method, which clinic.js doctor's thresholds are stated in). The per-period figures come from the probe's
//   own timer because monitorEventLoopDelay's reset() drops the interval that spans it (a 200 ms
//   block right after a reset is not recorded); monitorEventLoopDelay itself, never reset, is
//   reported over the whole life of the process in the last record.
// - Event-loop utilisation per period, and performance.nodeTiming.uvMetricsInfo where the line
//   has it (Node 22.8 and 20.18 on).
//
// Samples go out as JSON lines (format FORMAT, one object per line, every one with `pid`) to
// STALLBENCH_PROBE_OUT (a file, appended to, or fd:N), flushed every STALLBENCH_PROBE_FLUSH_MS and
// when the process ends: on exit, on SIGTERM, SIGINT or SIGHUP (the program's own handling is left
// as it was: with no listener of its own the process then dies of the signal as before), and on an
// uncaught exception. A SIGKILL loses at most one flush period. Memory is bounded: one period of
// samples in JavaScript, and the addon's ring and outstanding-canary limit.
//
// Settings (environment): STALLBENCH_PROBE_OUT (default stallbench-probe-<pid>.jsonl),
// STALLBENCH_PROBE_RATE canaries per second (default 50, 1-1000), STALLBENCH_PROBE_FLUSH_MS
// (default 1000, 100-60000), STALLBENCH_PROBE_ADDON (default: stallbench_canary.node beside this
// file). A bad setting, a Node without Node-API 8 or an output that cannot be written is one line on
// stderr and exit code 2, before the program runs.
const fs = require('fs');
const path = require('path');

const FORMAT = 1;
const LOOP_RESOLUTION_MS = 10;
const MIN_NAPI = 8;
const CANARY_FIELDS = ['submitted_ms', 'wait_ms', 'delivery_ms'];

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

function openOutput(target) {
  const fd = /^fd:(\d+)$/.exec(target);
  if (fd) {
    try {
      fs.fstatSync(Number(fd[1]));
    } catch (error) {
      refuse(`STALLBENCH_PROBE_OUT=${target}: descriptor ${fd[1]} is not open (${error.code})`);
    }
    return Number(fd[1]);
  }
  try {
    return fs.openSync(target, 'a');
  } catch (error) {
    return refuse(`cannot write ${target} (${error.code}): set STALLBENCH_PROBE_OUT to a writable file or fd:N`);
  }
}

function start() {
  if (!require('worker_threads').isMainThread) return;  // one probe per process: the pool is per process
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
  const target = process.env.STALLBENCH_PROBE_OUT || `stallbench-probe-${process.pid}.jsonl`;
  const fd = openOutput(target);
  const { performance } = require('perf_hooks');
  const wholeLife = require('perf_hooks').monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  wholeLife.enable();

  let lines = [];
  let loop = [];  // this period's loop delays: [when the timer fired, ms beyond the interval, ms active]
  let periodStart = addon.now();
  let elu = performance.eventLoopUtilization();
  let ended = false;
  const write = (record) => lines.push(JSON.stringify({ pid: process.pid, ...record }));
  const flushOut = () => {
    if (!lines.length) return;
    const text = `${lines.join('\n')}\n`;
    lines = [];
    try {
      fs.writeSync(fd, text);
    } catch (error) {
      // The file went away or the disk is full: the program goes on, the probe stops writing.
      if (!ended) fs.writeSync(2, `stallbench probe: writing ${target} failed (${error.code}); no more samples\n`);
      ended = true;
    }
  };

  const canaries = () => {
    const raw = addon.drain();
    const samples = [];
    for (let i = 0; i < raw.length; i += 4) {
      samples.push([raw[i + 1], raw[i + 2] - raw[i + 1], raw[i + 3] - raw[i + 2]].map((v) => Math.round(v * 1000) / 1000));
    }
    if (samples.length) write({ type: 'canaries', samples });
  };
  const period = () => {
    const now = addon.now();
    const status = addon.status();
    const metrics = performance.nodeTiming && performance.nodeTiming.uvMetricsInfo;
    const next = performance.eventLoopUtilization();
    canaries();
    write({
      type: 'period', t0: periodStart, t1: now,
      loop_delay_ms: loop,
      elu: performance.eventLoopUtilization(next, elu).utilization,
      uv: metrics ? { loop_count: metrics.loopCount, events: metrics.events, events_waiting: metrics.eventsWaiting } : null,
      outstanding: status.outstanding,
      oldest_outstanding_ms: status.oldest_submitted === null ? null : now - status.oldest_submitted,
      lost: status.lost, skipped: status.skipped,
    });
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
        resolution_ms: LOOP_RESOLUTION_MS,
      },
    });
    flushOut();
    ended = true;
  };

  write({
    type: 'start', format: FORMAT, t: periodStart, ppid: process.ppid, argv: process.argv,
    node: process.version, napi, uv: process.versions.uv,
    pool_size: process.env.UV_THREADPOOL_SIZE || null,
    rate_per_s: rate, flush_ms: flushMs, loop_resolution_ms: LOOP_RESOLUTION_MS,
    canary_fields: CANARY_FIELDS, clock: 'CLOCK_MONOTONIC ms',
  });
  flushOut();

  // Poisson arrivals: exponential gaps. Timers are unref'd: the probe never keeps a program alive.
  const nextCanary = () => setTimeout(() => {
    addon.submit();
    nextCanary();
  }, -Math.log(1 - Math.random()) * 1000 / rate).unref();
  nextCanary();
  // The first tick comes only once the main module has run: how long that took is start-up, said
  // once (startup_ms), not a loop delay of the running program.
  // Each sample also says how long the loop was active (not waiting for events) since the last
  // firing: a timer late because JavaScript held the loop was late while the loop was active; one
  // late because the process did not get a core (a busy machine, or the program's own pool threads
  // on every core) was late while the loop slept.
  let last = null;
  let lastUse = performance.eventLoopUtilization();
  setInterval(() => {
    const now = addon.now();
    const use = performance.eventLoopUtilization();
    if (last === null) write({ type: 'startup', t: now, startup_ms: now - periodStart });
    else {
      loop.push([Math.round(now * 10) / 10, Math.round(Math.max(0, now - last - LOOP_RESOLUTION_MS) * 100) / 100,
        Math.round(performance.eventLoopUtilization(use, lastUse).active * 100) / 100]);
    }
    last = now;
    lastUse = use;
  }, LOOP_RESOLUTION_MS).unref();
  setInterval(() => {
    if (ended) return;
    period();
    flushOut();
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
}

start();
