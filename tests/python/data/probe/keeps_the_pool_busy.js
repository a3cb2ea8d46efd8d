'use strict';
// For tests/python/test_probe_pool.py: keeps twice as many pbkdf2 jobs in flight as libuv's pool has
// threads (UV_THREADPOOL_SIZE), each resubmitted as it ends, for the seconds given; then exits at
// once, with the jobs still in flight. Every canary finds every thread busy, and about one pool's
// worth of jobs waits for a thread. Exiting rather than letting the jobs drain matters on a busy
// machine: there each job lasts longer, and the canaries of a drain (threads freed, nothing
// resubmitted) were a tenth of them.
//
//   node keeps_the_pool_busy.js SECONDS
const crypto = require('crypto');

const until = Date.now() + Number(process.argv[2]) * 1000;
const one = () => {
  if (Date.now() >= until) process.exit(0);
  crypto.pbkdf2('correct horse', 'salt', 100000, 32, 'sha256', one);
};
for (let i = 0; i < 2 * Number(process.env.UV_THREADPOOL_SIZE); i += 1) one();
