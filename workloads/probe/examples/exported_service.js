'use strict';
// The pool probe in production, a complete example (docs/probe.md): an HTTP service whose pool wait,
// pool utilisation, queue length and loop delay go to Prometheus two ways, as a service would pick
// one of them:
// - prom-client: the probe's metrics join prom-client's default registry, which the service serves
//   at /metrics beside its own metrics;
// - OpenTelemetry: the probe records on a Meter of the service's OpenTelemetry SDK, whose exporter
//   (here @opentelemetry/exporter-prometheus, on a port of its own; OTLP is set up the same way)
//   exports them.
// Its routes: /work derives a key with crypto.pbkdf2 (libuv's pool), /block runs 200 ms of
// JavaScript on the main thread, /metrics is the prom-client scrape. Everything listens on
// 127.0.0.1 only.
//
//   NODE_OPTIONS="--require /opt/stallbench/probe/stallbench-probe.cjs" STALLBENCH_PROBE_OUT=none \
//     node exported_service.js 8080 9464
//
// (the probe's folder is found from NODE_OPTIONS' --require here; a service would write its path.)
const crypto = require('crypto');
const http = require('http');
const path = require('path');
const client = require('prom-client');
const { metrics } = require('@opentelemetry/api');
const { MeterProvider } = require('@opentelemetry/sdk-metrics');
const { PrometheusExporter } = require('@opentelemetry/exporter-prometheus');

const probe = /--require\s+"?([^"\s]*stallbench-probe\.cjs)/.exec(process.env.NODE_OPTIONS || '');
const probeDir = path.dirname(probe ? probe[1] : '/opt/stallbench/probe/stallbench-probe.cjs');
const [port, otelPort] = process.argv.slice(2).map(Number);

// Prometheus through prom-client.
require(path.join(probeDir, 'stallbench-probe-prometheus.cjs')).register(client);

// OpenTelemetry: the SDK's MeterProvider, made global, then the probe's instruments on one of its meters.
const reader = new PrometheusExporter({ host: '127.0.0.1', port: otelPort });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
require(path.join(probeDir, 'stallbench-probe-otel.cjs')).register(metrics.getMeter('stallbench-probe'));

http.createServer(async (req, res) => {
  if (req.url === '/metrics') {
    res.setHeader('content-type', client.register.contentType);
    res.end(await client.register.metrics());
  } else if (req.url === '/block') {
    const until = Date.now() + 200;
    while (Date.now() < until);
    res.end('blocked\n');
  } else {
    crypto.pbkdf2('correct horse', 'salt', 100000, 32, 'sha256', () => res.end('ok\n'));
  }
}).listen(port, '127.0.0.1');
