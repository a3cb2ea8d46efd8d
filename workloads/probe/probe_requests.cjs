'use strict';
// The program's HTTP requests as Node announces them on its own diagnostics channels
// (http.server.request.start, http.server.response.finish; every line from 18 has them): how many
// started in a period, and how long each took inside the program, from its start to the end of its
// response. The rate is what Little's law needs: the program's pool jobs waiting for a thread on
// average, divided by the requests a second, is how long each request's pool work waited in all,
// however many jobs libuv split it into. A program that serves no HTTP has no requests: null.
const channels = require('diagnostics_channel');

const MAX_TIMES = 10000;  // request times kept per period; beyond that they are counted, not kept

const round = (value) => Math.round(value * 100) / 100;

// Returns take(): this period's {started, finished, ms, dropped}, or null when nothing was served.
function countRequests(now) {
  const startedAt = new WeakMap();
  let period = { started: 0, finished: 0, ms: [], dropped: 0 };
  let ever = false;
  channels.subscribe('http.server.request.start', ({ response }) => {
    ever = true;
    period.started += 1;
    startedAt.set(response, now());
  });
  channels.subscribe('http.server.response.finish', ({ response }) => {
    const at = startedAt.get(response);
    if (at === undefined) return;
    period.finished += 1;
    if (period.ms.length < MAX_TIMES) period.ms.push(round(now() - at));
    else period.dropped += 1;
  });
  return () => {
    const out = ever ? period : null;
    period = { started: 0, finished: 0, ms: [], dropped: 0 };
    return out;
  };
}

module.exports = { countRequests };
