'use strict';
// Reference service for the doctor, built so the truth is known: a report route that reads a 2 MiB
// CSV with fs.readFile and compresses it with zlib.gzip, both on libuv's pool. Node runs the gzip
// as many short pool jobs (one per 16 KiB chunk of output: about 70 here), so one request's pool
// work is dozens of jobs of about a millisecond each: a canary waits behind one of them at most, yet two requests at
// once each take twice as long. Its loop does little. Built for UV_THREADPOOL_SIZE=1 at the rate
// that keeps that one thread about 80% busy (`service_alone_ms` of the doctor's output is one
// request's time: 0.8 / that, a second): the pool is saturated; at 2 threads and more it is not.
//
//   node report_gzip.js PORT           GET /report
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { need, listen } = require('./service.js');

const express = need('express');

const ROWS = 2 * 1024 * 1024 / 64;  // 64-byte rows: 2 MiB, half of it hashes (compressed about 2:1)
const file = path.join(os.tmpdir(), `stallbench-report-${process.pid}.csv`);
const lines = [];
for (let i = 0; i < ROWS; i += 1) {
  const hash = crypto.createHash('sha1').update(String(i)).digest('hex');
  lines.push(`${String(i).padStart(8, '0')},${hash},book-${i % 997},${(i % 13) * 1.25}`.padEnd(63, ' '));
}
fs.writeFileSync(file, `${lines.join('\n')}\n`);
process.on('exit', () => fs.rmSync(file, { force: true }));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));

const app = express();
app.get('/report', (req, res, next) => {
  fs.readFile(file, (readError, csv) => {
    if (readError) return next(readError);
    return zlib.gzip(csv, (zipError, gz) => (zipError ? next(zipError) : res.json({ bytes: csv.length, gzip: gz.length })));
  });
});
listen(app);
