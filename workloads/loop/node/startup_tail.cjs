// How long Node takes from reading the clock for a main module's first timer to the loop's first
// timers check: the rest of that cold setTimeout call, the rest of the module and of Node's
// bootstrap (performance.nodeTiming.loopStart is marked just before uv_run). A setTimeout(0)
// armed by the main module has run by then only if libuv's millisecond clock ticked meanwhile,
// so this decides how often it beats a setImmediate.
//
// The clock is read somewhere inside setTimeout, at a point this run cannot see; but whether a
// millisecond tick fell between that read and the call's return can be seen: the timer's
// _idleStart (libuv's ms, from a base a warm second timer gives) is then before the ms the call
// returned in. Over many runs that happens in a share of them equal to the time from the read to
// the return, in ms. So each run prints `gap_ms` (from the return to the loop) and `after_read`
// (0 or 1); the tail of a run is gap_ms + mean(after_read). `stallbench trace --node` and the
// parity benchmark measure it on each line and have the model spend as long before its loop.
"use strict";
const clockMs = () => Number(process.hrtime.bigint()) / 1e6;  // libuv's clock (uv_hrtime), in ms
clockMs();
performance.now();
const timer = setTimeout(() => {}, 0);
const returned = performance.now();
const returnedMs = clockMs();
setImmediate(() => {
  const warmStartMs = clockMs();
  const warm = setTimeout(() => {}, 0);
  const warmEndMs = clockMs();
  clearTimeout(warm);
  const readMs = timer._idleStart - warm._idleStart + Math.floor(warmStartMs);
  process.stdout.write(JSON.stringify({
    gap_ms: performance.nodeTiming.loopStart - returned,
    after_read: Math.floor(returnedMs) - readMs,
    // the warm timer read the clock within one millisecond: its _idleStart gives the base exactly
    exact: Math.floor(warmStartMs) === Math.floor(warmEndMs),
  }) + "\n");
});
