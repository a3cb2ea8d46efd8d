'use strict';
// Reference service for the doctor, built so the truth is known: a token route that derives a key
// with crypto.pbkdf2 on libuv's pool, and every 20th request also parses a 19 MB JSON document on the
// main thread (a report someone asked for). Built for UV_THREADPOOL_SIZE=1 at the rate that keeps
// that thread 80-100% busy with pbkdf2 (one takes about 90-100 ms of CPU in Node 26, 126 ms in
// Node 20, on the 2-core development machine: 8 requests a second): the pool is saturated, and each
// parse holds the loop for about half a second: both.
//
//   node token_pbkdf2_parse.js PORT    GET /token
const crypto = require('crypto');
const { need, listen } = require('./service.js');

const express = need('express');

const ITERATIONS = 650000;
const PARSE_EVERY = 20;
const ORDERS = 260000;  // 19 MB of JSON
const orders = [];
for (let i = 0; i < ORDERS; i += 1) {
  orders.push({ id: i, customer: `c-${i % 5003}`, total: (i % 977) * 1.5, items: [i % 7, i % 11], paid: i % 3 === 0 });
}
const document = JSON.stringify(orders);

const app = express();
let requests = 0;
app.get('/token', (req, res, next) => {
  requests += 1;
  const parsed = requests % PARSE_EVERY === 0 ? JSON.parse(document).length : 0;
  crypto.pbkdf2('correct horse', 'salt', ITERATIONS, 32, 'sha256', (error, key) => {
    if (error) return next(error);
    return res.json({ token: key.toString('hex').slice(0, 16), parsed });
  });
});
listen(app);
