'use strict';
// For `stallbench probe-cost --exporter KIND`: preloaded after the probe on the side with the probe,
// it turns one of the probe's exporters on as a service would, with the pinned packages of
// scripts/packages/npm/exporters (STALLBENCH_EXPORTER_MODULES), and keeps it working as a collector
// would, so its cost is in what probe-cost measures:
// - prometheus: registered on prom-client's default registry, served at /metrics on 127.0.0.1 (an
//   ephemeral port, written to STALLBENCH_EXPORTER_PORT_FILE), which stallbench scrapes every second;
// - otel: registered on an OpenTelemetry SDK MeterProvider whose periodic reader collects and
//   exports every second, to the SDK's in-memory exporter.
const fs = require('fs');
const http = require('http');
const path = require('path');

const kind = process.env.STALLBENCH_EXPORTER;
const modules = process.env.STALLBENCH_EXPORTER_MODULES;
const probeDir = path.dirname(require.resolve(path.join(__dirname, 'stallbench-probe.cjs')));
const need = (name) => require(path.join(modules, name));

if (kind === 'prometheus') {
  const client = need('prom-client');
  require(path.join(probeDir, 'stallbench-probe-prometheus.cjs')).register(client);
  const server = http.createServer(async (req, res) => {
    res.setHeader('content-type', client.register.contentType);
    res.end(await client.register.metrics());
  });
  server.listen(0, '127.0.0.1', () => {
    fs.writeFileSync(process.env.STALLBENCH_EXPORTER_PORT_FILE, String(server.address().port));
  });
  server.unref();
} else if (kind === 'otel') {
  const sdk = need('@opentelemetry/sdk-metrics');
  const reader = new sdk.PeriodicExportingMetricReader({
    exporter: new sdk.InMemoryMetricExporter(sdk.AggregationTemporality.CUMULATIVE), exportIntervalMillis: 1000,
  });
  const provider = new sdk.MeterProvider({ readers: [reader] });
  require(path.join(probeDir, 'stallbench-probe-otel.cjs')).register(provider.getMeter('stallbench-probe'));
} else {
  fs.writeSync(2, `stallbench probe-cost: STALLBENCH_EXPORTER=${kind}: valid exporters are prometheus and otel\n`);
  process.exit(2);
}
