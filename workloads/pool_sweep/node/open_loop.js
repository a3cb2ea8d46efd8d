'use strict';
// The pool-sweep mix run by Node's own crypto, zlib, fs and dns (the open-loop benchmark's
// runtime=node@LINE cells): the C++ bench computes the arrival times (the same seeded Poisson
// arrivals its own cells use) and writes them with the mix to a JSON file; this script calibrates
// each class alone, submits every arrival at its time whether or not earlier jobs have finished,
// keeps xN classes' jobs in flight, gives jobs still out a drain period, calibrates again, and prints
// one JSON line. Latency runs from the scheduled arrival to the callback. UV_THREADPOOL_SIZE comes
// from the environment: one process per pool size.
//
// JavaScript cannot see when a job leaves libuv's queue. With the pool canary (the plan's `canary`:
// the Node-API addon of workloads/probe), a canary is queued immediately before every job, as the
// C++ runner does with its own: a no-op whose start on a pool thread is when the job's first trip
// got a thread (the queue is FIFO, and a freed thread runs the no-op and takes the job next). Per
// completed job it reports that wait (from the canary's submission) and the first trip's start
// since the arrival. For a lookup the canary sees libuv's main queue only: getaddrinfo may wait
// again in the slow-I/O queue, which a plain work item never enters.
//
//   node open_loop.js PLAN.json
const crypto = require('crypto');
const dns = require('dns');
const fs = require('fs');
const zlib = require('zlib');
const { canaryLog } = require('../../probe/canary_log');

const PASSWORD = 'correct horse';  // the C++ classes' inputs
const SALT = 'bookstore-salt';
const ALONE_GAP_MS = 10;            // as the C++ calibration: arrivals in a run are apart too

const now = () => Number(process.hrtime.bigint()) / 1e6;
const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const settle = (resolve, reject) => (error, value) => (error ? reject(error) : resolve(value));

// Response-like text for deflate: JSON records, compressible as an API's responses are.
function responseText(bytes) {
  const records = [];
  let length = 0;
  for (let i = 0; length < bytes; i += 1) {
    const record = JSON.stringify({ id: i, title: `Book ${i}`, price: (i * 7919) % 10000 / 100, stock: i % 13 });
    records.push(record);
    length += record.length + 1;
  }
  return Buffer.from(records.join('\n')).subarray(0, bytes);
}

// Each class: run(done) submits one job and calls done(error, answer); steps(), where a job is
// several trips through the pool, times each trip alone (the model's per-step input).
function makeClass(spec) {
  const { name, size, file } = spec;
  const one = (work) => ({ run: (done) => work(done), steps: null });
  switch (name) {
    case 'pbkdf2':
      return one((done) => crypto.pbkdf2(PASSWORD, SALT, size, 32, 'sha256', (e, k) => done(e, k && k.toString('hex'))));
    case 'scrypt':
      return one((done) => crypto.scrypt(PASSWORD, SALT, 64, { N: size, r: 8, p: 1, maxmem: 256 * size * 8 },
        (e, k) => done(e, k && k.toString('hex'))));
    case 'deflate': {
      const text = responseText(size);
      return one((done) => zlib.deflate(text, { level: 6 }, (e, out) => done(e, out && out.length)));
    }
    case 'read': {
      const oneTrip = readsInOneTrip(size);
      return {
        run: (done) => fs.readFile(file, (e, bytes) => done(e, bytes && bytes.length)),
        steps: oneTrip ? null : readSteps(file, size),
        oneTrip,
      };
    }
    case 'stat':
      return one((done) => fs.stat(file, (e, st) => done(e, st && st.size)));
    case 'lookup':
      return one((done) => dns.lookup('localhost', (e, address) => done(e, address)));
    case 'reverse':
      return one((done) => dns.lookupService('127.0.0.1', 0, (e, host) => done(e, host)));
    default:
      throw new Error(`unknown job class ${name}`);
  }
}

// Node 26 reads a file of up to one chunk (512 KiB) in one trip through the pool: a ReadFileJob
// opens, sizes, reads and closes it on one pool thread (lib/fs.js). Lines 18-24 make four trips, each
// queued again behind whatever arrived meanwhile. No API says which, so readFile's source does.
const READ_CHUNK = 512 * 1024;
function readsInOneTrip(size) {
  return size <= READ_CHUNK && fs.readFile.toString().includes('ReadFileJob');
}

// fs.readFile's four trips (open, fstat, read, close), each timed alone.
function readSteps(path, size) {
  return async () => {
    const times = [];
    const timed = async (work) => {
      const start = now();
      const value = await new Promise(work);
      times.push(now() - start);
      return value;
    };
    const fd = await timed((resolve, reject) => fs.open(path, 'r', settle(resolve, reject)));
    await timed((resolve, reject) => fs.fstat(fd, settle(resolve, reject)));
    await timed((resolve, reject) => fs.read(fd, Buffer.alloc(size), 0, size, 0, settle(resolve, reject)));
    await timed((resolve, reject) => fs.close(fd, settle(resolve, reject)));
    return times;
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0;
};

// Each class alone on the idle pool, as the C++ calibration does: at least 3, at most 25 jobs,
// ALONE_GAP_MS apart, for about budget_ms. Checks every answer against the first one.
async function calibrate(classes, budgetMs, reference) {
  const out = [];
  for (const [i, cls] of classes.entries()) {
    const latencies = [];
    const steps = [];
    let spent = 0;
    while (latencies.length < 25 && (latencies.length < 3 || spent < budgetMs)) {
      await later(ALONE_GAP_MS);
      spent += ALONE_GAP_MS;
      const start = now();
      const answer = await new Promise((resolve, reject) => cls.run(settle(resolve, reject)));
      const latency = now() - start;
      if (reference[i] === undefined) reference[i] = answer;
      if (answer !== reference[i]) throw new Error(`${cls.name} alone answered ${answer}, first ${reference[i]}`);
      latencies.push(latency);
      steps.push(cls.steps ? await cls.steps() : [latency]);
      spent += latency;
    }
    out.push({ latencies, steps });
  }
  return out;
}

function machineTicks() {
  const fields = fs.readFileSync('/proc/stat', 'latin1').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] || 0);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

// The open loop: arrivals at their scheduled times, xN classes kept in flight, then the drain.
function openLoop(classes, plan, reference, canaries) {
  return new Promise((resolve) => {
    const outcomes = classes.map(() => ({ latency_ms: [], arrived: 0, completed_in_window: 0, unfinished: 0, out: 0, errors: [],
      completed: [] }));
    const arrivals = [];
    plan.classes.forEach((spec, c) => spec.arrivals_ms.forEach((t) => arrivals.push({ t, c })));
    arrivals.sort((a, b) => a.t - b.t);
    let outstanding = 0;
    let next = 0;
    let phase = 'arriving';
    const start = now() + 2;  // a moment to arm everything before the first arrival
    const windowEnd = start + plan.window_s * 1000;
    let deadline = Infinity;
    const cpuStart = process.cpuUsage();
    const ticksStart = machineTicks();
    let measured = null;

    const submit = (c, arrival) => {
      outcomes[c].arrived += 1;
      outcomes[c].out += 1;
      outstanding += 1;
      const canary = canaries && canaries.submit();  // first: see the top of this file
      classes[c].run((error, answer) => {
        if (phase === 'over') return;  // counted as unfinished when the drain ended
        outstanding -= 1;
        const done = now();
        const o = outcomes[c];
        o.out -= 1;
        if (error || answer !== reference[c]) o.errors.push(error ? String(error) : `answered ${answer}, alone ${reference[c]}`);
        else if (done > deadline) o.unfinished += 1;
        else {
          o.latency_ms.push(done - arrival);
          o.completed.push({ canary, arrival });
          if (done <= windowEnd) o.completed_in_window += 1;
        }
        if (canaries) canaries.take();
        if (phase === 'arriving' && plan.classes[c].in_flight > 0) submit(c, now());
        if (phase === 'draining' && outstanding === 0) finish();
      });
    };
    const endWindow = () => {
      phase = 'draining';
      const seconds = (now() - start) / 1000;
      const cpu = process.cpuUsage(cpuStart);
      const ticks = machineTicks();
      measured = {
        window_s: seconds,
        cpu_util: (cpu.user + cpu.system) / 1e6 / (seconds * plan.cores),
        machine_cpu_util: ticks.total > ticksStart.total ? (ticks.busy - ticksStart.busy) / (ticks.total - ticksStart.total) : -1,
      };
      deadline = now() + plan.drain_s * 1000;
      if (outstanding === 0) finish();
      else setTimeout(finish, plan.drain_s * 1000);
    };
    const finish = () => {
      if (phase === 'over') return;
      phase = 'over';
      // Jobs still out cannot be taken back from the pool; they count as unfinished.
      outcomes.forEach((o) => { o.unfinished += o.out; });
      resolve({ outcomes, ...measured });
    };
    const tick = () => {
      const t = now();
      while (next < arrivals.length && start + arrivals[next].t <= t) {
        submit(arrivals[next].c, start + arrivals[next].t);
        next += 1;
      }
      if (t >= windowEnd) return endWindow();
      const wake = next < arrivals.length ? Math.min(start + arrivals[next].t, windowEnd) : windowEnd;
      setTimeout(tick, Math.max(0, wake - now()));
    };
    setTimeout(() => {
      plan.classes.forEach((spec, c) => { for (let i = 0; i < spec.in_flight; i += 1) submit(c, now()); });
      tick();
    }, 2);
  });
}

// Per completed job of each class (in the order of latency_ms): its canary's wait for a thread, and
// the first trip's start since the job's arrival.
async function firstWaits(canaries, outcomes) {
  const result = [];
  for (const o of outcomes) {
    const samples = await canaries.of(o.completed.map((job) => job.canary));
    result.push({
      pool_wait_ms: samples.map((c) => c.started - c.submitted),
      first_wait_ms: samples.map((c, i) => c.started - o.completed[i].arrival),
    });
  }
  return result;
}

async function main() {
  const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const canaries = canaryLog(plan.canary);
  const classes = plan.classes.map((spec) => ({ name: spec.name, ...makeClass(spec) }));
  const reference = [];
  const before = await calibrate(classes, plan.calibration_budget_ms, reference);
  // Long enough for work queued at a sustainable load to finish, bounded so an overloaded run ends:
  // the C++ runner's rule (sweep_run.cc, drain_seconds), from this runtime's own alone times.
  const longest = Math.max(...before.map((c) => median(c.latencies))) / 1000;
  plan.drain_s = Math.min(Math.max(plan.window_s / 2, 5 * longest, 1), 30);
  const run = await openLoop(classes, plan, reference, canaries);
  const waits = canaries ? await firstWaits(canaries, run.outcomes) : null;
  const after = await calibrate(classes, plan.calibration_budget_ms, reference);
  console.log(JSON.stringify({
    drain_s: plan.drain_s,
    window_s: run.window_s,
    cpu_util: run.cpu_util,
    machine_cpu_util: run.machine_cpu_util,
    classes: run.outcomes.map((o, c) => ({
      latency_ms: o.latency_ms,
      arrived: o.arrived,
      completed_in_window: o.completed_in_window,
      unfinished: o.unfinished,
      errors: o.errors,
      answer: reference[c],  // every job's answer equalled it; the bench checks it where it knows the right one
      alone_latency_ms: [...before[c].latencies, ...after[c].latencies],
      alone_steps_ms: [...before[c].steps, ...after[c].steps],
      ...(waits && waits[c]),
      ...(classes[c].oneTrip !== undefined && { one_trip: classes[c].oneTrip }),
    })),
  }));
  process.exit(0);  // jobs still on the pool after the drain are abandoned, as the C++ runner cancels them
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
