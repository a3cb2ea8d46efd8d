'use strict';
// For tests/python/test_probe.py: every 500 ms, a fixed amount of work on the main thread (pbkdf2Sync:
// the same CPU time however busy the machine is), for the seconds given. The loop's samples after
// each block have the largest lateness and the largest CPU time alike.
//
//   node blocks_with_cpu.js SECONDS
const crypto = require('crypto');

const timer = setInterval(() => crypto.pbkdf2Sync('correct horse', 'salt', 200000, 32, 'sha256'), 500);
setTimeout(() => clearInterval(timer), Number(process.argv[2]) * 1000);
