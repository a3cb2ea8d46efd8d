'use strict';
// The event loop as the probe samples it: how late a 10 ms interval timer fires (monitorEventLoopDelay's
// method, in which clinic.js doctor's thresholds are stated), and how much CPU time the main thread
// used since the previous firing. A timer fires late either because the program's own code held the
// loop or because the main thread did not get a core (a busy machine, or the program's own pool
// threads on every core); the CPU time tells which: JavaScript that holds the loop for 300 ms uses
// 300 ms of CPU, a thread that waited 127 ms for a core uses next to none. The CPU time comes from
// process.threadCpuUsage where the line has it (22.x on), else from the addon's
// CLOCK_THREAD_CPUTIME_ID, read on the main thread: the same clock.
const RESOLUTION_MS = 10;
const FIELDS = ['fired_at_ms', 'late_ms', 'cpu_ms'];

const round = (value, places) => Math.round(value * 10 ** places) / 10 ** places;

function mainThreadCpu(addon) {
  if (typeof process.threadCpuUsage === 'function') {
    return {
      source: 'process.threadCpuUsage',
      ms: () => {
        const used = process.threadCpuUsage();
        return (used.user + used.system) / 1000;
      },
    };
  }
  return { source: 'CLOCK_THREAD_CPUTIME_ID', ms: addon.threadCpuMs };
}

// Calls onFirst(now) at the first firing (the main module has run by then: start-up, not a delay)
// and onSample([fired_at, late, cpu]) at every later one; returns where the CPU time comes from.
function sampleLoop(addon, onFirst, onSample) {
  const cpu = mainThreadCpu(addon);
  let last = null;
  let lastCpu = 0;
  setInterval(() => {
    const now = addon.now();
    const used = cpu.ms();
    if (last === null) onFirst(now);
    else onSample([round(now, 1), round(Math.max(0, now - last - RESOLUTION_MS), 2), round(used - lastCpu, 2)]);
    last = now;
    lastCpu = used;
  }, RESOLUTION_MS).unref();
  return cpu.source;
}

module.exports = { sampleLoop, RESOLUTION_MS, FIELDS };
