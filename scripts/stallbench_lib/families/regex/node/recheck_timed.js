'use strict';
// recheck alone, as a user runs it (its default parameters: 10 s timeout, automaton checker then
// fuzzing), timed regex by regex: the other side of `stallbench versus-recheck`. Run by
// families/regex/tools.py under the newest pinned Node line with the pinned regex-tools set; reads one JSON
// request on stdin, writes one JSON reply on stdout:
//
//   {"regexes": [{"source": "^(a+)+$", "flags": ""}]}
//   -> {"recheck": "recheck 4.5.0 (native)",
//       "results": [{"status": "vulnerable", "complexity": "exponential", "checker": "automaton", "ms": 12.3}]}
//
// The native build is used where the machine has one (as analyse.js does); its agent starts with
// the first check, which is timed apart (`warmup_ms`) so that no regex pays for it.
const fs = require('fs');
const path = require('path');
const { chooseBackend } = require('./recheck_backend');

async function main() {
  const request = JSON.parse(fs.readFileSync(0, 'utf8'));
  const backend = chooseBackend();
  const recheck = require('recheck');
  const version = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve('recheck')), 'package.json'))).version;
  const warm = process.hrtime.bigint();
  await recheck.check('^a$', '');
  const warmupMs = Number(process.hrtime.bigint() - warm) / 1e6;
  const results = [];
  for (const regex of request.regexes) {
    const started = process.hrtime.bigint();
    const d = await recheck.check(regex.source, regex.flags);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    results.push({ status: d.status, complexity: d.complexity?.type ?? null, checker: d.checker ?? null,
                   error: d.error?.kind ?? null, ms });
  }
  const reply = JSON.stringify({ recheck: `recheck ${version} (${backend})`,
                                 warmup_ms: warmupMs, results }) + '\n';
  process.stdout.write(reply, () => process.exit(0));  // recheck's native agent would keep the process alive
}

main().catch((e) => {
  process.stderr.write(`recheck_timed.js: ${e.stack || e}\n`);
  process.exit(2);
});
