'use strict';
// A DNS server of our own on 127.0.0.1 (an ephemeral UDP port), for dns.Resolver pointed at it with
// setServers: it answers A queries under stallbench.test with 127.0.0.1 and refuses everything
// else, so nothing ever reaches a real resolver. Node's Resolver (c-ares) sends the query and reads
// the answer on the loop thread: no pool thread is involved, which is what the pool experiment shows.
const dgram = require('dgram');

const DOMAIN = 'stallbench.test';
const TYPE_A = 1;
const REFUSED = 5;

// The first question's name, type and end offset; null when the message is not a plain query.
function question(message) {
  if (message.length < 12 || message.readUInt16BE(4) !== 1) return null;
  const labels = [];
  let at = 12;
  while (at < message.length && message[at] !== 0) {
    const length = message[at];
    if (length > 63 || at + 1 + length >= message.length) return null;
    labels.push(message.toString('latin1', at + 1, at + 1 + length).toLowerCase());
    at += 1 + length;
  }
  if (at + 5 > message.length) return null;
  return { name: labels.join('.'), type: message.readUInt16BE(at + 1), end: at + 5 };
}

function answer(message, q) {
  const ours = q.name === DOMAIN || q.name.endsWith('.' + DOMAIN);
  const answers = ours && q.type === TYPE_A ? 1 : 0;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(message.readUInt16BE(0), 0);                   // the query's id
  header.writeUInt16BE(0x8180 | (message.readUInt16BE(2) & 0x0100) | (ours ? 0 : REFUSED), 2);
  header.writeUInt16BE(1, 4);                                           // the question, echoed
  header.writeUInt16BE(answers, 6);
  const record = Buffer.from([0xc0, 0x0c, 0, TYPE_A, 0, 1, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1]);
  return Buffer.concat([header, message.subarray(12, q.end), answers ? record : Buffer.alloc(0)]);
}

// Resolves with the bound socket once it listens; `answered` counts the queries it answered.
function start() {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.answered = 0;
    socket.on('message', (message, from) => {
      const q = question(message);
      if (!q) return;
      socket.answered += 1;
      socket.send(answer(message, q), from.port, from.address);
    });
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve(socket));
  });
}

module.exports = { DOMAIN, start };
