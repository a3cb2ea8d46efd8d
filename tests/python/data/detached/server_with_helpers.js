'use strict';
// For the tests of what a user's program leaves behind (test_detached_children.py): an HTTP server on
// 127.0.0.1:PORT that starts two helpers the way daemons are made, each a `sleep` whose argument
// MARK1 / MARK2 lets the test find it: one detached into a session of its own (setsid) while the
// server lives, one double-forked (its parent exits at once, leaving an orphan in a session of its own).
const { spawn } = require('child_process');
const [port, mark] = process.argv.slice(2);
spawn('sleep', [`${mark}1`], { detached: true, stdio: 'ignore' });
spawn('sh', ['-c', `(setsid sleep ${mark}2 &)`], { stdio: 'ignore' });
require('http').createServer((req, res) => res.end('ok')).listen(Number(port), '127.0.0.1');
