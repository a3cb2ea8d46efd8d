// Node's side of the comparison: JSON.parse of the very payload file the C++ parsers parse,
// followed by the same record task (count, id sum, sum of a * b in record order, UTF-8 bytes of
// the text field), timed as one piece like the C++ adapters' sum_records. Run by
// workloads/json/node_parse.cc as `node -e <this> FILE ID A B TEXT`; prints one JSON line.
"use strict";
const { readFileSync } = require("node:fs");
const [file, id, a, b, text] = process.argv.slice(1);
const payload = readFileSync(file, "utf8");

function parseAndSum() {
  const records = JSON.parse(payload);
  let idSum = 0, amountSum = 0, textBytes = 0;
  for (const r of records) {
    idSum += r[id];
    amountSum += r[a] * r[b];
    textBytes += Buffer.byteLength(r[text], "utf8");
  }
  return { records: records.length, id_sum: idSum, amount_sum: amountSum, text_bytes: textBytes };
}

let started = performance.now();
const first = parseAndSum();
const firstMs = performance.now() - started;
started = performance.now();
const steady = parseAndSum();
const steadyMs = performance.now() - started;
if (JSON.stringify(first) !== JSON.stringify(steady)) throw new Error("two parses of one file disagree");
console.log(JSON.stringify({ first_ms: firstMs, steady_ms: steadyMs, version: process.version, ...steady }));
