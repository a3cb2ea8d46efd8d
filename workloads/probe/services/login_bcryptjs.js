'use strict';
// Reference service for the doctor, built so the truth is known: a login whose password check runs
// bcryptjs (bcrypt in JavaScript) on the main thread, about 70 ms of JavaScript a request on the
// 2-core development machine (cost 10), and no pool work. Its loop is blocked; its pool is idle.
// Built for 3 requests a second.
//
//   node login_bcryptjs.js PORT        GET /login
const { need, listen } = require('./service.js');

const express = need('express');
const bcrypt = need('bcryptjs');

const COST = 10;
const stored = bcrypt.hashSync('correct horse', COST);
const app = express();
app.get('/login', (req, res) => {
  res.json({ ok: bcrypt.compareSync('correct horse', stored) });
});
listen(app);
