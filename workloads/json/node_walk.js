// Node's side of `stallbench json --input`: JSON.parse of a user's file plus a walk of every value
// (count, UTF-8 bytes of every key and string, sum of the numbers: the C++ adapters' walk), the
// first time and then repeated until MIN_MS have passed (steady state: the median). Run by
// workloads/json/node_parse.cc as `node -e <this> FILE MIN_MS`; prints one JSON line. A file that
// is not UTF-8, or that JSON.parse refuses, prints {"rejected": message} instead.
"use strict";
const { readFileSync } = require("node:fs");
const [file, minMsText] = process.argv.slice(1);
const minMs = Number(minMsText);

function reject(e) {
  console.log(JSON.stringify({ rejected: `${e.name}: ${e.message}`, version: process.version }));
  process.exit(0);
}

let text;
try {
  // fatal: bytes that are not UTF-8 are an error, as in every C++ parser, not U+FFFD.
  text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(file));
} catch (e) {
  reject(e);
}

// Iterative, in document order: JSON.parse accepts any depth, so the walk must too.
function walk(root) {
  let values = 0, stringBytes = 0, numberSum = 0;
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    ++values;
    if (typeof v === "string") {
      stringBytes += Buffer.byteLength(v, "utf8");
    } else if (typeof v === "number") {
      numberSum += v;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; --i) stack.push(v[i]);
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; --i) {
        stringBytes += Buffer.byteLength(keys[i], "utf8");
        stack.push(v[keys[i]]);
      }
    }
  }
  return { values, string_bytes: stringBytes, number_sum: numberSum };
}

const once = () => walk(JSON.parse(text));
let started = performance.now();
let answer;
try {
  answer = once();
} catch (e) {
  reject(e);
}
const firstMs = performance.now() - started;
const times = [];
const steadyStart = performance.now();
while (times.length < 2 || performance.now() - steadyStart < minMs) {
  started = performance.now();
  once();
  times.push(performance.now() - started);
}
times.sort((x, y) => x - y);
const mid = times.length >> 1;
const steadyMs = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
console.log(JSON.stringify({ first_ms: firstMs, steady_ms: steadyMs, iterations: times.length,
                             version: process.version, ...answer }));
