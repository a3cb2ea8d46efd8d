'use strict';
// Reference service for the doctor, built so the truth is known: a status route that answers a small
// JSON object, no pool work, well under a millisecond of JavaScript. Neither its loop nor its pool is
// ever the bottleneck. Built for 50 requests a second, which the 2-core development machine served
// with two spinners per core on top of its other work: its threads then wait for cores, which is
// neither a blocked loop nor a saturated pool.
//
//   node status_json.js PORT           GET /status
const { need, listen } = require('./service.js');

const express = need('express');

const started = Date.now();
const app = express();
let served = 0;
app.get('/status', (req, res) => {
  served += 1;
  res.json({ status: 'ok', served, up_s: Math.round((Date.now() - started) / 1000), pid: process.pid });
});
listen(app);
