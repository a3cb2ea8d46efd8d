'use strict';
// For the doctor's tests: a server that keeps twice as many pbkdf2 jobs in flight as libuv's pool has
// threads (UV_THREADPOOL_SIZE, else 4), so pool work always finds every thread busy.
const crypto = require('crypto');

require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
const one = () => crypto.pbkdf2('correct horse', 'salt', 300000, 32, 'sha256', one);
for (let i = 0; i < 2 * Number(process.env.UV_THREADPOOL_SIZE || 4); i += 1) one();
