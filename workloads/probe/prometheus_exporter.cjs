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
// 1 s by default); gauges hold the last period's means, and are in the registry only while they
// have one: prom-client shows an unlabelled gauge never set as 0, which would read as an idle pool
// where libuv's pool cannot be read, and as no wait in a period without requests. The metrics are
// those of probe_metrics.cjs, by their Prometheus names. `registry` defaults to prom-client's default
// one. Returns the function that stops it (the metrics stay registered).
const { METRICS, SECONDS, samples, gauges, runningProbe } = require('./probe_metrics.cjs');

function register(client, { registry = client && client.register, probe = runningProbe() } = {}) {
  if (!client || typeof client.Histogram !== 'function' || typeof client.Gauge !== 'function') {
    throw new TypeError("register(client): give prom-client's module (require('prom-client'))");
  }
  const made = {};
  const shown = new Set();  // the gauges in the registry now
  for (const [key, m] of Object.entries(METRICS)) {
    const options = { name: m.prometheus, help: m.help, labelNames: m.labels };
    made[key] = m.kind === 'histogram'
      ? new client.Histogram({ ...options, buckets: SECONDS, registers: [registry] })
      : new client.Gauge({ ...options, registers: [] });
  }
  return probe.subscribe((news) => {
    for (const [key, value, labels] of samples(news)) made[key].observe(labels, value);
    const values = gauges(news.period) || {};
    for (const [key, m] of Object.entries(METRICS)) {
      if (m.kind !== 'gauge') continue;
      if (values[key] !== undefined) {
        made[key].set(values[key]);
        if (!shown.has(key)) registry.registerMetric(made[key]);
        shown.add(key);
      } else if (shown.delete(key)) {
        registry.removeSingleMetric(m.prometheus);
      }
    }
  });
}

module.exports = { register };
