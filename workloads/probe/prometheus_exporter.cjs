'use strict';
// The pool probe in Prometheus, through prom-client: its figures registered as prom-client metrics
// in the program's registry, served by the program's own /metrics route with everything else it
// exports. Nothing here requires prom-client: the program passes its own.
//
//   const client = require('prom-client');
//   require('/path/to/probe/stallbench-probe-prometheus.cjs').register(client);  // client.register
//   app.get('/metrics', async (req, res) => res.type(client.register.contentType).send(await client.register.metrics()));
//
// Histograms (seconds) get every sample of each period, once a period (the probe's flush period,
// 1 s by default); gauges hold the last period's means. The metrics are those of probe_metrics.cjs,
// by their Prometheus names. `registry` defaults to prom-client's default one. Returns the function
// that stops it (the metrics stay registered).
const { METRICS, SECONDS, samples, gauges, runningProbe } = require('./probe_metrics.cjs');

function register(client, { registry = client && client.register, probe = runningProbe() } = {}) {
  if (!client || typeof client.Histogram !== 'function' || typeof client.Gauge !== 'function') {
    throw new TypeError("register(client): give prom-client's module (require('prom-client'))");
  }
  const made = {};
  for (const [key, m] of Object.entries(METRICS)) {
    const options = { name: m.prometheus, help: m.help, labelNames: m.labels, registers: [registry] };
    made[key] = m.kind === 'histogram' ? new client.Histogram({ ...options, buckets: SECONDS }) : new client.Gauge(options);
  }
  return probe.subscribe((news) => {
    for (const [key, value, labels] of samples(news)) made[key].observe(labels, value);
    const values = gauges(news.period);
    for (const [key, value] of Object.entries(values || {})) made[key].set(value);
    if (values && values.waitPerRequest === undefined) made.waitPerRequest.reset();
  });
}

module.exports = { register };
