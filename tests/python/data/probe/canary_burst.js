'use strict';
// Canaries behind canaries, for tests/python/test_probe_pool.py: run with UV_THREADPOOL_SIZE=1 and
// no pool work of the program's own. After one canary has started the pool (so it can be read),
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
  addon.submit();
  while (addon.drain().length === 0) await sleep(5);
  await sleep(50);  // the sampler has looked libuv up
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
