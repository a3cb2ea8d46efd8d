'use strict';
// An example service for `stallbench sweep-pool --app` (plain `http`, no framework): POST or GET
// /login checks a password the way a real login does, with crypto.pbkdf2 (100,000 iterations of
// sha256, on libuv's pool), then reads the page template with fs.readFile (the pool again) and
// answers 200. /health answers at once. It listens on 127.0.0.1 only, on the port given.
//
//   node login_server.js PORT
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const path = require('path');

const SALT = 'bookstore-salt';
const ITERATIONS = 100000;
const TEMPLATE = path.join(__dirname, 'welcome.html');
const STORED = crypto.pbkdf2Sync('correct horse', SALT, ITERATIONS, 32, 'sha256');

function login(res) {
  crypto.pbkdf2('correct horse', SALT, ITERATIONS, 32, 'sha256', (error, key) => {
    if (error || !crypto.timingSafeEqual(key, STORED)) {
      res.writeHead(error ? 500 : 401).end();
      return;
    }
    fs.readFile(TEMPLATE, 'utf8', (readError, page) => {
      if (readError) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(page.replace('{user}', 'reader'));
    });
  });
}

const server = http.createServer((req, res) => {
  if (req.url === '/login') return login(res);
  if (req.url === '/health') return res.end('ok');
  res.writeHead(404).end();
});
server.listen(Number(process.argv[2]), '127.0.0.1');
