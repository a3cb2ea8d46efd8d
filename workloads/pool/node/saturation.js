'use strict';
// Seed 000's pool experiment run by Node itself (the pool family's runtime=node@LINE cells): one
// pbkdf2 alone on the idle pool (the unit waits are read in), then, in one synchronous block, `jobs`
// crypto.pbkdf2 calls, one fs.readFile, one dns.lookup('localhost'), one HTTP request to a server in
// this process on 127.0.0.1 (with fetch or http.get) and one dns.Resolver.resolve4 against a DNS
// server of ours on 127.0.0.1. Prints, as one JSON line, when each completed (ms since the block)
// and every answer, which the bench checks. UV_THREADPOOL_SIZE comes from the environment: one
// process per pool size.
//
// With the pool canary (the Node-API addon of workloads/probe, its path the last argument), a
// canary is queued immediately before the readFile and immediately before the lookup: a no-op on
// libuv's pool whose start on a thread says how long the request behind it waited for one
// (fs_queue_wait_ms, dns_queue_wait_ms). The canary goes first because the queue is FIFO: a freed
// thread runs the no-op and takes the request next, so the request waits as long; queued after the
// request, the canary would wait for another thread to free up. The lookup's canary sees the main
// queue only (getaddrinfo may wait again in libuv's slow-I/O queue). Without the addon those two
// numbers are left out.
//
//   node saturation.js JOBS ITERATIONS DIGEST CLIENT FILE [CANARY.node]      CLIENT: fetch or http.get
const crypto = require('crypto');
const dns = require('dns');
const fs = require('fs');
const http = require('http');
const dnsServer = require('./dns_server');
const { canaryLog } = require('../../probe/canary_log');

const PASSWORD = 'correct horse';  // the C++ cell's inputs (pbkdf2_job.h), so the keys must match
const SALT = 'bookstore-salt';
const KEY_BYTES = 32;

const msSince = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const callback = (resolve, reject) => (error, value) => (error ? reject(error) : resolve(value));

const pbkdf2 = (iterations, digest) => new Promise((resolve, reject) =>
  crypto.pbkdf2(PASSWORD, SALT, iterations, KEY_BYTES, digest, callback(resolve, reject)))
  .then((key) => key.toString('hex'));
const readFile = (path) => new Promise((resolve, reject) => fs.readFile(path, callback(resolve, reject)))
  .then((bytes) => crypto.createHash('sha256').update(bytes).digest('hex'));
const lookup = (name) => new Promise((resolve, reject) => dns.lookup(name, callback(resolve, reject)));
const resolve4 = (resolver, name) => new Promise((resolve, reject) => resolver.resolve4(name, callback(resolve, reject)))
  .then((addresses) => addresses.join(','));

// Both take a URL with a literal 127.0.0.1, so neither asks dns.lookup (which would use the pool).
const CLIENTS = {
  'fetch': async (url) => {
    const response = await fetch(url);
    return `${response.status} ${await response.text()}`;
  },
  'http.get': (url) => new Promise((resolve, reject) => {
    http.get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve(`${response.statusCode} ${body}`));
    }).on('error', reject);
  }),
};

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

// Resolves with when the work completed (ms since `start`) and its answer; records the order.
function timed(start, what, order, work) {
  return work.then((answer) => {
    const at = msSince(start);
    order.push(what);
    return { at, answer };
  });
}

async function main() {
  const [jobs, iterations, digest, client, file, canaryPath] = process.argv.slice(2);
  const request = CLIENTS[client];
  if (!request || !(Number(jobs) >= 1) || !(Number(iterations) >= 1) || !file) {
    throw new Error(`usage: saturation.js JOBS ITERATIONS DIGEST (${Object.keys(CLIENTS).join('|')}) FILE [CANARY.node]`);
  }
  const canary = canaryLog(canaryPath);
  const server = http.createServer((req, res) => res.end('ok'));
  const url = `http://127.0.0.1:${await listen(server)}/`;
  const dnsSocket = await dnsServer.start();
  const resolver = new dns.Resolver();
  resolver.setServers([`127.0.0.1:${dnsSocket.address().port}`]);

  const aloneStart = process.hrtime.bigint();
  const aloneKey = await pbkdf2(Number(iterations), digest);
  const aloneMs = msSince(aloneStart);

  const order = [];
  const start = process.hrtime.bigint();
  const jobsDone = Array.from({ length: Number(jobs) }, (_, i) =>
    timed(start, `pbkdf2 ${i}`, order, pbkdf2(Number(iterations), digest)));
  const fsCanary = canary && canary.submit();
  const fsDone = timed(start, 'fs', order, readFile(file));
  const dnsCanary = canary && canary.submit();
  const dnsDone = timed(start, 'dns', order, lookup('localhost'));
  const tcpDone = timed(start, 'tcp', order, request(url));
  const resolveDone = timed(start, 'resolve4', order, resolve4(resolver, `pool.${dnsServer.DOMAIN}`));
  const [keys, fsResult, dnsResult, tcpResult, resolveResult] =
    await Promise.all([Promise.all(jobsDone), fsDone, dnsDone, tcpDone, resolveDone]);
  const waits = canary && (await canary.of([fsCanary, dnsCanary])).map((c) => c.started - c.submitted);

  // The same request again with nothing else running: what the client itself costs, warm.
  const tcpAloneStart = process.hrtime.bigint();
  const tcpAlone = await request(url);
  const tcpAloneMs = msSince(tcpAloneStart);

  console.log(JSON.stringify({
    pbkdf2_alone_ms: aloneMs,
    pbkdf2_done_ms: keys.map((k) => k.at),
    fs_latency_ms: fsResult.at,
    dns_latency_ms: dnsResult.at,
    tcp_latency_ms: tcpResult.at,
    resolve4_latency_ms: resolveResult.at,
    tcp_alone_ms: tcpAloneMs,
    order,
    keys: [aloneKey, ...keys.map((k) => k.answer)],
    file_sha256: fsResult.answer,
    address: dnsResult.answer,
    http: [tcpResult.answer, tcpAlone],
    resolve4: resolveResult.answer,
    resolve4_queries: dnsSocket.answered,
    ...(waits && { fs_queue_wait_ms: waits[0], dns_queue_wait_ms: waits[1] }),
  }));
  process.exit(0);  // the HTTP client's kept-alive connection would hold the loop open
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
