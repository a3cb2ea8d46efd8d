'use strict';
// Asks recheck (automaton analysis plus fuzzing) for an attack on each regex that needs one, and
// randexp for strings each regex matches (the sample check's generated inputs). Run by
// redos/tools.py under a pinned Node line, with NODE_PATH at the pinned regex-tools set; reads one
// JSON request on stdin, writes one JSON reply on stdout:
//
//   {"regexes": [{"source": "^(a+)+$", "flags": "", "attack": true}], "generated": 40, "max_repeat": 5,
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
const fs = require('fs');
const path = require('path');

function nativeAvailable() {
  try {
    require.resolve(`recheck-${process.platform}-${process.arch}/package.json`);
    return true;
  } catch (e) {
    return false;
  }
}

// A small seeded generator (mulberry32), so generated inputs are the same on every run.
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

// What the caller reads of recheck's diagnostics (its attack string itself can be megabytes).
function essentials(d) {
  const attack = d.attack ? { pumps: d.attack.pumps, suffix: d.attack.suffix } : undefined;
  return { status: d.status, checker: d.checker, complexity: d.complexity, attack, error: d.error };
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
  const native = nativeAvailable();
  process.env.RECHECK_BACKEND = native ? 'native' : 'pure';
  // recheck is a large module: loaded only when an attack is asked for.
  const recheck = request.regexes.some((r) => r.attack) ? require('recheck') : null;
  const RandExp = require('randexp');
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('recheck')), 'package.json'))).version;
  const random = seeded(request.seed);
  const results = [];
  for (const regex of request.regexes) {
    const result = { diagnostics: null, generated: [], generator_error: null };
    if (regex.attack) {
      const params = { timeout: request.timeout_ms, randomSeed: request.seed };
      let found = await recheck.check(regex.source, regex.flags, params);
      if (found.status === 'unknown' && found.error?.kind === 'timeout' && found.checker !== 'fuzz') {
        found = await recheck.check(regex.source, regex.flags, { ...params, checker: 'fuzz' });
      }
      result.diagnostics = essentials(found);
    }
    try {
      result.generated = generate(RandExp, regex.source, regex.flags, request.generated, request.max_repeat, random);
    } catch (e) {
      result.generator_error = `${e.name}: ${e.message}`;
    }
    results.push(result);
  }
  process.stdout.write(JSON.stringify({ recheck: `recheck ${version} (${native ? 'native' : 'Scala.js'})`, results }) + '\n');
  process.exit(0);  // recheck's native agent would otherwise keep the process alive
}

main().catch((e) => {
  process.stderr.write(`analyse.js: ${e.stack || e}\n`);
  process.exit(2);
});
