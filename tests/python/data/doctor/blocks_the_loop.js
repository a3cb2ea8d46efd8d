'use strict';
// For the doctor's tests: a server whose JavaScript holds the event loop for 300 ms every second.
require('http').createServer((req, res) => res.end('ok')).listen(Number(process.argv[2]), '127.0.0.1');
setInterval(() => {
  const until = Date.now() + 300;
  while (Date.now() < until);
}, 1000);
