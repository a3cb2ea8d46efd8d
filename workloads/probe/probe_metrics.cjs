'use strict';
// The probe's figures as metrics, for the exporters (stallbench-probe-otel.cjs and
// stallbench-probe-prometheus.cjs): one table of what is exported, and each period's samples turned
// into observations of it. Durations are in seconds, as OpenTelemetry's semantic conventions and
// Prometheus' naming both want them.
const SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// kind: histogram (one value per sample) or gauge (the last period's value); otel and prometheus
// are the names each convention spells; help says what it is.
const METRICS = {
  queueWait: {
    kind: 'histogram', unit: 's', otel: 'stallbench.pool.queue.wait', prometheus: 'stallbench_pool_queue_wait_seconds',
    labels: ['waited_for'],
    help: 'How long pool work waited in libuv\'s queue (a canary submitted at a random moment); waited_for: thread when '
      + 'it found every thread busy with the program\'s jobs, core when a thread was idle and it waited for a core',
  },
  loopDelay: {
    kind: 'histogram', unit: 's', otel: 'stallbench.eventloop.delay', prometheus: 'stallbench_eventloop_delay_seconds',
    labels: [], help: 'How late a 10 ms timer fired on the event loop',
  },
  loopHeld: {
    kind: 'histogram', unit: 's', otel: 'stallbench.eventloop.held', prometheus: 'stallbench_eventloop_held_seconds',
    labels: [], help: 'Of each timer\'s lateness, the part the program\'s own code explains (the main thread\'s CPU time)',
  },
  utilization: {
    kind: 'gauge', unit: '1', otel: 'stallbench.pool.utilization', prometheus: 'stallbench_pool_utilization_ratio',
    labels: [], help: 'Busy threads of libuv\'s pool / its threads, mean over the last period',
  },
  queueLength: {
    kind: 'gauge', unit: '{job}', otel: 'stallbench.pool.queue.length', prometheus: 'stallbench_pool_queue_length',
    labels: [], help: 'The program\'s pool jobs waiting for a thread, mean over the last period',
  },
  waitPerRequest: {
    kind: 'gauge', unit: 's', otel: 'stallbench.pool.queue.wait_per_request',
    prometheus: 'stallbench_pool_queue_wait_per_request_seconds', labels: [],
    help: 'Little\'s law over the last period: the program\'s jobs waiting for a thread / its HTTP requests a second, '
      + 'how long each request\'s pool work waited for threads in all (absent without HTTP requests)',
  },
  threads: {
    kind: 'gauge', unit: '{thread}', otel: 'stallbench.pool.threads', prometheus: 'stallbench_pool_threads',
    labels: [], help: 'Threads in libuv\'s pool',
  },
};

// One period's news from probe.subscribe() as [metric key, value, labels] per histogram sample.
function samples(news) {
  const out = [];
  for (const [, wait, , idle, ahead] of news.canaries) {
    const waitedFor = idle === null || ahead === null ? 'unknown' : idle > ahead ? 'core' : 'thread';
    out.push(['queueWait', wait / 1000, { waited_for: waitedFor }]);
  }
  for (const [, late, cpu] of news.loop) {
    out.push(['loopDelay', late / 1000, {}], ['loopHeld', Math.min(late, cpu) / 1000, {}]);
  }
  return out;
}

// The gauges' values from the last period (null before the pool could be read; the wait per request
// only when the period saw requests).
function gauges(period) {
  const pool = period && period.pool;
  if (!pool) return null;
  const values = { utilization: pool.threads ? pool.busy / pool.threads : 0, queueLength: pool.waiting, threads: pool.threads };
  const started = period.requests && period.requests.started;
  if (started) values.waitPerRequest = pool.waiting / (started / ((period.t1 - period.t0) / 1000));
  return values;
}

// The running probe: preloaded, or started now from beside this file.
function runningProbe() {
  return globalThis[Symbol.for('stallbench.probe')] || require(require('path').join(__dirname, 'stallbench-probe.cjs'));
}

module.exports = { METRICS, SECONDS, samples, gauges, runningProbe };
