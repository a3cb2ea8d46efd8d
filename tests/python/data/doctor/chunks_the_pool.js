'use strict';
// For the doctor's tests: three zlib.gzip streams of 1 MiB always in flight, each started again as
// it ends. Node runs each gzip as dozens of short pool jobs, one at a time per stream, so a pool of
// one thread always has about two jobs waiting for it, while each canary waits only for the job ahead
// of it; a pool of four has a thread to spare. Serves nothing but /.
const crypto = require('crypto');
const zlib = require('zlib');

require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
const data = Buffer.from(crypto.randomBytes(512 * 1024).toString('hex'));  // 1 MiB, about 2:1 compressible
const one = () => zlib.gzip(data, one);
for (let i = 0; i < 3; i += 1) one();
