"use strict";
// The Node peer of stallbench's starvation experiments (workloads/starvation/starvation.cc): the same
// experiment, timed the same way, printed as one JSON line when the process exits.
//
//   node starvation.js reschedule SCHEDULER N FILE
//   node starvation.js busy_timer BUSY_MS TIMER_MS
//   node starvation.js async_pbkdf2 CALLS ITERATIONS INTERVAL_MS
const fs = require("node:fs");
const crypto = require("node:crypto");

const print = (result) => process.on("exit", () => process.stdout.write(JSON.stringify(result) + "\n"));
const number = (text) => {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${text}`);
  return n;
};

const schedulers = {
  nexttick: (f) => process.nextTick(f),
  microtask: (f) => queueMicrotask(f),
  immediate: (f) => setImmediate(f),
  timeout: (f) => setTimeout(f, 0),
};

function reschedule(name, n, file) {
  const queueNext = schedulers[name];
  if (!queueNext) throw new Error(`unknown scheduler ${name}`);
  const r = { calls: 0, calls_before_timer: -1, calls_before_io: -1, total_ms: 0, bytes_read: -1 };
  let start = 0;
  const call = () => {
    if (++r.calls < n) queueNext(call);
    else r.total_ms = performance.now() - start;
  };
  setTimeout(() => { r.calls_before_timer = r.calls; }, 1);
  fs.readFile(file, (error, bytes) => {
    if (error) throw error;
    r.calls_before_io = r.calls;
    r.bytes_read = bytes.length;
  });
  start = performance.now();
  queueNext(call);
  print(r);
}

function busyTimer(busyMs, timerMs) {
  const r = { timer_fired_ms: -1, busy_done_ms: -1 };
  const armed = performance.now();
  setTimeout(() => { r.timer_fired_ms = performance.now() - armed; }, timerMs);
  const end = armed + busyMs;
  while (performance.now() < end) {}
  r.busy_done_ms = performance.now() - armed;
  print(r);
}

async function hashPasswords(calls, iterations) {
  let key;
  for (let i = 0; i < calls; i++) key = crypto.pbkdf2Sync(`password-${i}`, "bookstore-salt", iterations, 32, "sha256");
  return key.toString("hex");
}

function asyncPbkdf2(calls, iterations, intervalMs) {
  const r = { returned_ms: -1, ticks_before_return: -1, ticks_before_resume: -1, last_key_hex: "" };
  let ticks = 0;
  const interval = setInterval(() => { ticks++; }, intervalMs);
  const called = performance.now();
  const pending = hashPasswords(calls, iterations);
  r.returned_ms = performance.now() - called;
  r.ticks_before_return = ticks;
  pending.then((key) => {
    r.ticks_before_resume = ticks;
    r.last_key_hex = key;
    clearInterval(interval);
  });
  print(r);
}

const [experiment, ...args] = process.argv.slice(2);
if (experiment === "reschedule") reschedule(args[0], number(args[1]), args[2]);
else if (experiment === "busy_timer") busyTimer(number(args[0]), number(args[1]));
else if (experiment === "async_pbkdf2") asyncPbkdf2(number(args[0]), number(args[1]), number(args[2]));
else throw new Error(`unknown experiment ${experiment} (valid: reschedule, busy_timer, async_pbkdf2)`);
