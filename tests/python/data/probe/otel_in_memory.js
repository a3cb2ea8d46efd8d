'use strict';
// For tests/python/test_probe_exporters.py: the probe's OpenTelemetry exporter on a real SDK
// MeterProvider (the pinned @opentelemetry/sdk-metrics, from NODE_PATH) with the SDK's in-memory
// exporter. For the seconds given it keeps twice as many pbkdf2 jobs in flight as the pool has threads,
// blocks the loop for 150 ms twice a second and sends itself an HTTP request every 100 ms (the
// requests Little's law divides by); then it collects once and prints, per instrument,
// its name, unit, type and points (attributes, and the count, sum or value) as one JSON line.
//
//   NODE_OPTIONS="--require .../stallbench-probe.cjs" node otel_in_memory.js PROBE_DIR SECONDS
const crypto = require('crypto');
const http = require('http');
const path = require('path');
const sdk = require('@opentelemetry/sdk-metrics');

const [probeDir, seconds] = process.argv.slice(2);
const exporter = new sdk.InMemoryMetricExporter(sdk.AggregationTemporality.CUMULATIVE);
const reader = new sdk.PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60000 });
const provider = new sdk.MeterProvider({ readers: [reader] });
require(path.join(probeDir, 'stallbench-probe-otel.cjs')).register(provider.getMeter('stallbench-probe'));

const until = Date.now() + Number(seconds) * 1000;
const one = () => {
  if (Date.now() < until) crypto.pbkdf2('correct horse', 'salt', 100000, 32, 'sha256', one);
};
for (let i = 0; i < 2 * Number(process.env.UV_THREADPOOL_SIZE); i += 1) one();
const blocks = setInterval(() => crypto.pbkdf2Sync('correct horse', 'salt', 150000, 32, 'sha256'), 500);
const server = http.createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1');
const requests = setInterval(() => http.get(`http://127.0.0.1:${server.address().port}/`, (res) => res.resume()), 100);

setTimeout(async () => {
  clearInterval(blocks);
  clearInterval(requests);
  await reader.forceFlush();
  server.close();
  const found = {};
  for (const batch of exporter.getMetrics()) {
    for (const scope of batch.scopeMetrics) {
      for (const metric of scope.metrics) {
        found[metric.descriptor.name] = {
          unit: metric.descriptor.unit,
          type: metric.descriptor.type,
          points: metric.dataPoints.map((p) => ({
            attributes: p.attributes,
            count: typeof p.value === 'object' ? p.value.count : undefined,
            value: typeof p.value === 'number' ? p.value : undefined,
          })),
        };
      }
    }
  }
  console.log(JSON.stringify(found));
  await provider.shutdown();
}, Number(seconds) * 1000 + 1500);
