'use strict';
// Asks recheck (automaton analysis plus fuzzing) for an attack on each regex that needs one, and
// randexp for strings each regex matches (the sample check's generated inputs). Run by
// families/regex/tools.py under a pinned Node line, with NODE_PATH at the pinned regex-tools set; reads one
// JSON request on stdin, writes one JSON reply on stdout:
//
//   {"regexes": [{"source": "^(a+)+$", "flags": "", "attack": true, "native": false}], "generated": 40, "max_repeat": 5,
//    "seed": 1, "timeout_ms": 10000}
//   -> {"recheck": "recheck 4.5.0 (native)",
//       "results": [{"diagnostics": {"status", "checker", "complexity", "attack": {"pumps", "suffix"}, "error"}|null,
//                    "generated": ["aa", ...], "generator_error": null}]}
//
// recheck runs its native build from the same npm set when this machine has one (the
// recheck-linux-x64 package: a few times faster), else its Scala.js build in this process; never
// the Java one, and nothing is fetched. Its own `timeout` bounds each check; the caller bounds the
// whole process. When the automaton analysis runs out of time (a case-insensitive pattern's
// automaton can be huge), the fuzzer gets a second, equal, chance.
//
// A verdict of the fuzzer alone is uncertain: recheck hands a pattern to it when its exact
// (automaton) checker gives up, on a repeat count over `maxRepeatCount` say (`{44,88}` inside a
// nested quantifier: its "safe" was no evidence). Then the automaton checker is asked again with
// raised limits, within the same timeout; when it still cannot decide, attacks of our own from the
// pattern's structure (attack_shapes.js) and the fuzzer's are measured on V8 (probe.js), and the
// reply carries them all with their points (`uncertain` says why): the caller keeps the worst.
//
//   request adds "probe": {"slow_ms", "hang_ms", "budget_ms", "ladder"}; each result adds
//   "uncertain": why | null, "retry": diagnostics | null,
//   "candidates": [{"shape", "pumps": [{"before", "pump"}], "suffix", "points": [[pumped, ms]], "over"}] | null
//
// Each result also says where its time went (`ms`, milliseconds per phase it went through: "recheck",
// "fuzzer" after an automaton checker that ran out of time, "retry", "probe", "generate").
const fs = require('fs');
const path = require('path');
const { attackShapes } = require('./attack_shapes');
const { withMatch, withRequired } = require('./literals');
const { probe } = require('./probe');
const { chooseBackend } = require('./recheck_backend');

const RAISED = { maxRepeatCount: 1024, maxNFASize: 350000, maxPatternSize: 15000 };  // recheck's: 30, 35000, 1500

// A small seeded generator (mulberry32), so generated inputs are the same on every run; one per regex, so
// that a regex's strings do not depend on which others share its process.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What the caller reads of recheck's diagnostics (its attack string itself can be megabytes), the
// attack's suffix completed with the characters every match needs (literals.js).
function essentials(d, parse, regex) {
  let attack;
  if (d.attack) {
    const ours = { pumps: d.attack.pumps.map((p) => ({ before: p.prefix + p.pump.repeat(p.bias), pump: p.pump })),
                   suffix: d.attack.suffix };
    const completed = parse ? withRequired(parse, regex.source, regex.flags, ours) : ours;
    attack = { pumps: completed.pumps.map((p) => ({ prefix: p.before, pump: p.pump, bias: 0 })), suffix: completed.suffix };
  }
  return { status: d.status, checker: d.checker, complexity: d.complexity, attack, error: d.error };
}

// Why recheck's verdict is not exact: its fuzzer decided (the automaton checker gave up), nothing did,
// or the regex is global or sticky (recheck models one match; a global replace searches again from
// each match's end, which is where trim's /^\s*|\s*$/g is quadratic).
function uncertainty(d, flags) {
  if (/[gy]/.test(flags)) return `recheck models one match, not the g or y flag's repeated search`;
  if (d.status === 'unknown') return `recheck could not decide (${d.error?.kind ?? 'unknown'})`;
  if (d.checker === 'fuzz') return `recheck's ${d.status === 'safe' ? '"safe"' : 'attack'} came from its fuzzer alone (its automaton checker gave up)`;
  return null;
}

const oneMatch = (flags) => flags.replace(/[gy]/g, '');  // what recheck analyses: one match

function recheckAttack(d, who) {
  if (d.status !== 'vulnerable' || !d.attack || !d.attack.pumps.every((p) => p.pump)) return [];
  return [{ shape: `${who} (${d.complexity.summary})`,
            pumps: d.attack.pumps.map((p) => ({ before: p.prefix + p.pump.repeat(p.bias), pump: p.pump })),
            suffix: d.attack.suffix }];
}

// recheck again with raised limits; when still not exact, our attacks and the fuzzer's, measured.
// (An automaton checker that ran out of time is not asked again: with raised limits it would only
// take longer.) An exact attack the retry finds is measured beside the others: its prefix can make
// it catastrophic at its shortest input already, too steep to read a growth from.
async function resolveUncertain(recheck, parse, regex, first, params, request, automatonTimedOut, timed) {
  const why = uncertainty(first, regex.flags);
  if (!why) return { uncertain: null, retry: null, candidates: null };
  let retry = null;
  if (!automatonTimedOut && oneMatch(regex.flags) === regex.flags) {  // a "safe" for one match says nothing of g
    const timeout = Math.min(params.timeout, request.retry_timeout_ms);
    retry = essentials(await recheck.check(regex.source, oneMatch(regex.flags), { ...params, ...RAISED, timeout, checker: 'automaton' }),
                       parse, regex);
    timed('retry');
    if (retry.status === 'safe') return { uncertain: why, retry, candidates: null };
  }
  const exact = retry ? recheckAttack(retry, 'recheck with raised limits') : [];
  const shapes = attackShapes(parse, regex.source, regex.flags).map((a) => ({
    shape: a.shape, pumps: [{ before: a.prefix, pump: a.pump }], suffix: a.suffix }));
  const found = [...exact, ...recheckAttack(first, "recheck's fuzzer"), ...shapes]
    .map((a) => withRequired(parse, regex.source, regex.flags, a));
  // For another engine than V8 (regex.native), each also with a match after it: V8 cannot tell them
  // apart, the regex's own engine measures both (native_probe.py).
  const attacks = regex.native ? found.concat(found.map((a) => withMatch(parse, regex.source, regex.flags, a)).filter(Boolean))
    : found;
  const measured = await probe(regex.source, regex.flags, attacks, {
    slowMs: request.probe.slow_ms, hangMs: request.probe.hang_ms, budgetMs: request.probe.budget_ms,
    ladder: request.probe.ladder });
  timed('probe');
  return { uncertain: why, retry, candidates: attacks.map((a, i) => ({ ...a, ...measured[i] })) };
}

function generate(RandExp, source, flags, count, maxRepeat, random) {
  const found = new Set();
  const generator = new RandExp(new RegExp(source, flags.replace('u', '')));
  generator.max = maxRepeat;
  generator.randInt = (low, high) => low + Math.floor(random() * (high - low + 1));
  for (let i = 0; i < count * 3 && found.size < count; i++) found.add(generator.gen());
  return [...found];
}

async function main() {
  const request = JSON.parse(fs.readFileSync(0, 'utf8'));
  const backend = chooseBackend();
  // recheck is a large module: loaded only when an attack is asked for.
  const recheck = request.regexes.some((r) => r.attack) ? require('recheck') : null;
  const RandExp = require('randexp');
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('recheck')), 'package.json'))).version;
  const parse = recheck ? require('regjsparser').parse : null;
  const results = [];
  for (const regex of request.regexes) {
    const result = { diagnostics: null, generated: [], generator_error: null, ms: {} };
    let lap = process.hrtime.bigint();
    const timed = (what) => {  // where a regex's analysis time went: meta.json keeps it per regex
      const now = process.hrtime.bigint();
      result.ms[what] = Math.round(Number(now - lap) / 1e4) / 100;
      lap = now;
    };
    if (regex.attack) {
      const params = { timeout: request.timeout_ms, randomSeed: request.seed };
      let found = await recheck.check(regex.source, oneMatch(regex.flags), params);
      timed('recheck');
      const automatonTimedOut = found.status === 'unknown' && found.error?.kind === 'timeout' && found.checker !== 'fuzz';
      if (automatonTimedOut) {
        found = await recheck.check(regex.source, oneMatch(regex.flags), { ...params, checker: 'fuzz' });
        timed('fuzzer');
      }
      result.diagnostics = essentials(found, parse, regex);
      Object.assign(result, await resolveUncertain(recheck, parse, regex, found, params, request, automatonTimedOut,
                                                   timed));
    }
    try {
      result.generated = generate(RandExp, regex.source, regex.flags, request.generated, request.max_repeat,
                                  seeded(request.seed));
    } catch (e) {
      result.generator_error = `${e.name}: ${e.message}`;
    }
    timed('generate');
    results.push(result);
  }
  const reply = JSON.stringify({ recheck: `recheck ${version} (${backend})`, results }) + '\n';
  // Exit once the reply is written (a pipe takes megabytes in pieces; exiting at once cut a long reply
  // short): recheck's native agent would otherwise keep the process alive.
  process.stdout.write(reply, () => process.exit(0));
}

main().catch((e) => {
  process.stderr.write(`analyse.js: ${e.stack || e}\n`);
  process.exit(2);
});
