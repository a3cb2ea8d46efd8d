'use strict';
// Canaries behind canaries, for tests/python/test_probe_pool.py: run with UV_THREADPOOL_SIZE=1 and
// no pool work of the program's own. Once a canary has come back with the pool read,
// ROUNDS bursts of BURST canaries submitted in one turn of the loop: every canary after a burst's
// first is queued behind the others on the one thread. Prints one JSON line: each canary's idle
// threads and the program's jobs ahead of it when it was submitted.
//
//   node canary_burst.js ADDON ROUNDS BURST
const addon = require(process.argv[2]);
const rounds = Number(process.argv[3]);
const burst = Number(process.argv[4]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fieldAt = (name) => addon.fields.indexOf(name);

(async () => {
  addon.startPoolSampler(1000);
  // One canary at a time until one comes back with the pool read: until the sampler has looked libuv
  // up, a canary's idle and ahead are NaN (a fixed 50 ms was too short on a busy machine, where every
  // canary of the bursts came back unread).
  for (let tries = 0; tries < 2000; tries += 1) {
    addon.submit();
    let raw = [];
    while (raw.length === 0) {
      await sleep(5);
      raw = Array.from(addon.drain());
    }
    if (!Number.isNaN(raw[fieldAt('idle')])) break;
  }
  const found = [];
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < burst; i += 1) addon.submit();
    let raw = [];
    while (raw.length < burst * addon.fields.length) {
      await sleep(5);
      raw = raw.concat(Array.from(addon.drain()));
    }
    for (let i = 0; i < raw.length; i += addon.fields.length) {
      found.push({ idle: raw[i + fieldAt('idle')], ahead: raw[i + fieldAt('ahead')] });
    }
  }
  process.stdout.write(`${JSON.stringify({ canaries: found })}\n`);
})();
