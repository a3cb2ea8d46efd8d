'use strict';
// For the doctor's tests: a server with nothing to do but answer.
require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
