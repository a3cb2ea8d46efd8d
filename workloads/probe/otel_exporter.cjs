'use strict';
// The pool probe in OpenTelemetry: its figures recorded on a Meter of the program's own, which the
// program's OpenTelemetry SDK exports (OTLP, Prometheus, a console: whatever it is set up with).
// Nothing here requires @opentelemetry/api: the meter is passed in, so the program's own copy of
// the API and SDK are the ones used.
//
//   const { metrics } = require('@opentelemetry/api');      // once the SDK's MeterProvider is set
//   require('/path/to/probe/stallbench-probe-otel.cjs').register(metrics.getMeter('stallbench-probe'));
//
// Histograms (seconds) get every sample of each period, once a period (the probe's flush period,
// 1 s by default); gauges report the last period's means when the SDK collects. The instruments are
// those of probe_metrics.cjs, by their OpenTelemetry names. Returns the function that stops it.
const { METRICS, SECONDS, samples, gauges, runningProbe } = require('./probe_metrics.cjs');

function register(meter, probe = runningProbe()) {
  if (!meter || typeof meter.createHistogram !== 'function') {
    throw new TypeError('register(meter): give an OpenTelemetry Meter (metrics.getMeter(name) of @opentelemetry/api)');
  }
  const histograms = {};
  let last = null;
  for (const [key, m] of Object.entries(METRICS)) {
    if (m.kind === 'histogram') {
      histograms[key] = meter.createHistogram(m.otel, { description: m.help, unit: m.unit,
        advice: { explicitBucketBoundaries: SECONDS } });
    } else {
      meter.createObservableGauge(m.otel, { description: m.help, unit: m.unit }).addCallback((result) => {
        const values = gauges(last);
        if (values && values[key] !== undefined) result.observe(values[key]);
      });
    }
  }
  return probe.subscribe((news) => {
    for (const [key, value, labels] of samples(news)) {
      histograms[key].record(value, Object.fromEntries(Object.entries(labels).map(([k, v]) => [`stallbench.${k}`, v])));
    }
    last = news.period;
  });
}

module.exports = { register };
