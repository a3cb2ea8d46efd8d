'use strict';
// The canary's shape, for tests/python/test_probe.py: run with UV_THREADPOOL_SIZE=2.
// 1. Canaries on an idle pool, one every 5 ms.
// 2. One pbkdf2 alone (the unit the waits are read in).
// 3. Two pbkdf2 jobs fill the pool; a quarter of a job later a canary is submitted: it can only
//    start when a job frees its thread.
// 4. With the outstanding limit at 3 and the pool still full, five submissions: two are skipped.
// Prints one JSON line.
//
//   node canary_shape.js ADDON ITERATIONS
const crypto = require('crypto');

const addon = require(process.argv[2]);
const iterations = Number(process.argv[3]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pbkdf2 = () => new Promise((resolve) => crypto.pbkdf2('p', 's', iterations, 32, 'sha256', () => resolve(addon.now())));
const samples = (raw) => {
  const out = [];
  for (let i = 0; i < raw.length; i += addon.fields.length) {
    out.push({ submitted: raw[i + 1], started: raw[i + 2], completed: raw[i + 3] });
  }
  return out;
};
const drained = async (count) => {
  const found = [];
  while (found.length < count) {
    await sleep(5);
    found.push(...samples(addon.drain()));
  }
  return found;
};

(async () => {
  for (let i = 0; i < 20; i += 1) {
    addon.submit();
    await sleep(5);
  }
  const idle = await drained(20);
  const aloneStart = addon.now();
  await pbkdf2();
  const aloneMs = addon.now() - aloneStart;

  const jobs = [pbkdf2(), pbkdf2()];
  await sleep(aloneMs / 4);
  addon.submit();
  const firstDone = await Promise.race(jobs);
  const [behind] = await drained(1);
  await Promise.all(jobs);

  const more = [pbkdf2(), pbkdf2()];
  await sleep(aloneMs / 4);
  addon.setLimit(3);
  const ids = Array.from({ length: 5 }, () => addon.submit());
  const status = addon.status();
  await Promise.all(more);
  await drained(3);
  console.log(JSON.stringify({
    idle_waits: idle.map((s) => s.started - s.submitted), alone_ms: aloneMs, first_done: firstDone, behind,
    limited: { accepted: ids.filter((id) => id !== null).length, skipped: status.skipped, outstanding: status.outstanding },
  }));
})();
