'use strict';
// The pool canary (canary_addon.cc) as the bench's own Node scripts use it (the pool family's
// saturation.js, the pool-sweep mix's open_loop.js): each queues a canary immediately before a
// request and wants, per canary, when it was submitted and when it started on a pool thread, which
// is how long the request behind it waited for a thread. The preload for users' programs
// (probe.cjs) samples at random instead and writes JSON lines; this only keeps the samples.
//
//   const log = canaryLog(path);     // null when path is empty: run without the canary
//   const id = log.submit();         // just before the request
//   log.take();                      // now and then, so the addon's ring never overflows
//   const [{ submitted, started }] = await log.of([id]);

// The completions of canaries whose requests have completed may still be on their way: a canary's
// completion normally runs on the main thread before the request's (it left the queue first), but
// its pool thread may be preempted between running the no-op and posting the completion.
const TURNS = 1000;  // at 1 ms each: a second, far longer than any such preemption

class CanaryLog {
  constructor(addon) {
    this.addon = addon;
    this.addon.setLimit(1e6);  // never refuse a canary: each job needs one (the runs bound the jobs)
    this.seen = new Map();
  }

  submit() {
    return this.addon.submit();
  }

  take() {
    const samples = this.addon.drain();  // [id, submitted, started, ...] per canary (addon.fields)
    for (let i = 0; i < samples.length; i += this.addon.fields.length) {
      this.seen.set(samples[i], { submitted: samples[i + 1], started: samples[i + 2] });
    }
  }

  async of(ids) {
    for (let turn = 0; turn < TURNS && ids.some((id) => !this.seen.has(id)); turn += 1) {
      this.take();
      if (ids.some((id) => !this.seen.has(id))) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return ids.map((id) => {
      if (!this.seen.has(id)) throw new Error(`pool canary ${id} never completed`);
      return this.seen.get(id);
    });
  }
}

function canaryLog(path) {
  return path ? new CanaryLog(require(path)) : null;
}

module.exports = { canaryLog };
