'use strict';
// For the doctor's tests: a server whose JavaScript holds the event loop every second with a fixed
// amount of work (a pbkdf2Sync of 1,000,000 iterations, about 150 ms of CPU on the 2-core development
// machine). A fixed amount of work, not a spin until a wall-clock time: the doctor counts the loop's
// own CPU time, and on a busy machine a 300 ms spin by the clock got only 40 ms of it (a loop late
// for want of a core, which is not blocked), where this block keeps its CPU however busy the machine.
const crypto = require('crypto');

require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
setInterval(() => crypto.pbkdf2Sync('correct horse', 'salt', 1000000, 32, 'sha256'), 1000);
