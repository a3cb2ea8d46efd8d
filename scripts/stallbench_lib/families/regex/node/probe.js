'use strict';
// A short measured probe of attack inputs on V8's backtracking engine, to find the worst of several
// candidate attacks (recheck's and attack_shapes.js's) before the study measures one on every
// engine. Each attack's pumped part climbs the caller's ladder (8, 16, ... bytes) until a match takes `slow_ms`, the
// ladder ends, or the regex's probe budget is spent. A match cannot be interrupted from the thread
// that runs it, so the matches run in a worker thread that the main thread terminates (V8 stops a
// backtracking regex on termination) when one match outlasts `hang_ms`: that attack is then the
// catastrophic one, recorded as `over` at that length.
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

// An attack ({pumps: [{before, pump}], suffix}) with about `pumped` bytes of pump: every pump repeated
// the same whole number of times, never cut (a cut pump's leftover can let the input match early).
// Returns the input and the pumped bytes it really has.
function attackInput(attack, pumped) {
  const period = attack.pumps.reduce((sum, p) => sum + p.pump.length, 0);
  const repeats = Math.max(1, Math.round(pumped / period));
  const input = attack.pumps.map((p) => p.before + p.pump.repeat(repeats)).join('') + attack.suffix;
  return { input, pumped: repeats * period };
}

const JUMP = 100;  // a rise this steep between two rungs is measured again in between (three lengths)

// One match as a program runs it: with g a global replace (every match, from the end of the last),
// with y alone one test at the start; else one search.
function run(regex, input) {
  regex.lastIndex = 0;
  return regex.global ? input.replace(regex, '') : regex.test(input);
}

function timed(regex, attack, a, asked) {
  const { input, pumped } = attackInput(attack, asked);
  parentPort.postMessage({ attack: a, pumped, starting: true });
  let runs = 0;
  const started = performance.now();
  do {
    run(regex, input);
    runs++;
  } while (performance.now() - started < 2 && runs < 1000);  // fast matches: enough runs for the clock
  const ms = (performance.now() - started) / runs;
  parentPort.postMessage({ attack: a, pumped, ms });
  return { ms, pumped };
}

// In the worker: every attack from `first` on, each length announced before it is matched. Where
// the time jumps to `slowMs` from far below, three lengths in between show the growth's shape.
function measure({ source, flags, attacks, first, slowMs, ladder }) {
  const regex = new RegExp(source, flags);
  for (let a = first; a < attacks.length; a++) {
    let last = null;
    for (const asked of ladder) {
      if (last && attackInput(attacks[a], asked).pumped === last[0]) continue;  // a long pump: the same input
      const { ms, pumped } = timed(regex, attacks[a], a, asked);
      if (ms < slowMs) {
        last = [pumped, ms];
        continue;
      }
      if (last && ms > JUMP * last[1]) {
        const between = new Set([0.25, 0.5, 0.75].map((f) => attackInput(attacks[a], last[0] * (pumped / last[0]) ** f).pumped));
        for (const n of [...between].filter((n) => n > last[0] && n < pumped)) {
          if (timed(regex, attacks[a], a, n).ms >= slowMs) break;
        }
      }
      break;
    }
  }
  parentPort.postMessage({ done: true });
}

// In the main thread: [{points: [[pumped, ms], ...], over: pumped | null}] per attack, within
// `budgetMs` in all.
function probe(source, flags, attacks, { slowMs, hangMs, budgetMs, ladder }) {
  const results = attacks.map(() => ({ points: [], over: null }));
  const deadline = Date.now() + budgetMs;
  return new Promise((resolve) => {
    const start = (first) => {
      if (first >= attacks.length || Date.now() > deadline) return resolve(results);
      const worker = new Worker(__filename, { workerData: { source, flags, attacks, first, slowMs, ladder } });
      let current = { attack: first, pumped: ladder[0] };
      let timer = null;
      const stop = (next) => {
        clearTimeout(timer);
        worker.removeAllListeners();
        worker.terminate().then(() => start(next));
      };
      const arm = () => {
        clearTimeout(timer);
        const hang = Date.now() + hangMs;
        timer = setTimeout(() => {
          if (Date.now() < hang) return stop(attacks.length);  // the probe's budget ran out: no verdict on this one
          results[current.attack].over = current.pumped;  // one match outlasted the limit: the worst seen
          stop(current.attack + 1);
        }, Math.max(0, Math.min(hang, deadline) - Date.now()));
      };
      worker.on('message', (m) => {
        if (m.done) return stop(attacks.length);
        current = m;
        if (m.starting) arm();
        else results[m.attack].points.push([m.pumped, m.ms]);
      });
      worker.on('error', (e) => {
        process.stderr.write(`probe.js: ${e.message}\n`);
        stop(current.attack + 1);
      });
      arm();
    };
    start(0);
  });
}

if (!isMainThread) measure(workerData);

module.exports = { probe };
