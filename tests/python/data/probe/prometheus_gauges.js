'use strict';
// For tests/python/test_probe_exporters.py: the prom-client exporter fed three periods by hand (a
// stand-in for the running probe's subscribe()): libuv's pool unreadable, then read with requests,
// then read without requests. Prints, per period, the names of the stallbench gauges the registry
// shows, as one JSON line.
//
//   node prometheus_gauges.js PROBE_DIR        (NODE_PATH: the exporters' node_modules)
const path = require('path');
const client = require('prom-client');

let tell = null;
const probe = { subscribe: (listener) => { tell = listener; return () => {}; } };
const registry = new client.Registry();
require(path.join(process.argv[2], 'stallbench-probe-prometheus.cjs')).register(client, { registry, probe });

const pool = { samples: 100, threads: 2, busy: 1, queued: 0.5, waiting: 0.5, queued_max: 2 };
const periods = [
  { t0: 0, t1: 1000, pool: null, requests: { started: 10 } },
  { t0: 1000, t1: 2000, pool, requests: { started: 10 } },
  { t0: 2000, t1: 3000, pool, requests: { started: 0 } },
];
(async () => {
  const shown = [];
  for (const period of periods) {
    tell({ canaries: [], loop: [], period });
    const text = await registry.metrics();
    shown.push([...text.matchAll(/^# TYPE (stallbench_\S+) gauge$/gm)].map((m) => m[1]).sort());
  }
  console.log(JSON.stringify(shown));
})();
