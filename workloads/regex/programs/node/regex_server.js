'use strict';
// V8's RegExp in stallbench's line protocol (../README.md), run by the binary of the Node line
// measured. Synchronous on purpose: no event loop is involved, only the regex engine, and each
// batch is timed here so the pipe is not measured.
//
// As node-linear (started with --enable-experimental-regexp-engine-on-excessive-backtracks) V8
// switches to its linear engine after 50,000 backtracks, but only for a pattern that engine can
// run; on any other it keeps backtracking. `compile` says so (`fallback WHY`): with
// --enable-experimental-regexp-engine too, the `l` flag asks V8 itself whether its linear engine
// takes the pattern, on this very Node line.
const fs = require('fs');

const LINEAR = process.execArgv.includes('--enable-experimental-regexp-engine-on-excessive-backtracks');
const regexes = new Map();
let nextId = 0;
let inputs = [];
const decoded = new Map();  // 'latin1' or 'utf8' -> the inputs as strings

function text(hex, encoding) {
  return hex === '-' ? '' : Buffer.from(hex, 'hex').toString(encoding);
}

function takesLinear(source, flags) {
  try {
    new RegExp(source, flags + 'l');
    return true;
  } catch (e) {
    return false;
  }
}

// Why V8's linear engine cannot take the pattern: a flag it lacks when the pattern without it
// would do, else the constructs it lacks that the source shows (V8 only says "Cannot be executed
// in linear time").
function linearRefusal(source, flags) {
  const named = [...flags].filter((f) => 'iu'.includes(f));
  const alone = named.filter((f) => takesLinear(source, flags.replace(f, '')));
  const blocking = alone.length ? alone : takesLinear(source, flags.replace(/[iu]/g, '')) ? named : [];
  if (blocking.length) {
    return `V8's linear engine does not take the ${blocking.join(' and ')} flag${blocking.length > 1 ? 's' : ''}: backtracking`;
  }
  const found = [];
  if (/\\[1-9]|\\k</.test(source)) found.push('a backreference');
  if (/\(\?[=!]/.test(source)) found.push('a lookahead');
  if (/\{\d{2,}(,\d*)?\}|\{\d+,\d{2,}\}/.test(source)) found.push('a counted repeat over its bound');
  return `V8's linear engine cannot run ${found.length ? found.join(', ') : 'this pattern'}: backtracking`;
}

// JavaScript's g and y as a program runs them: with g a global replace (every match, the next
// searched from the end of the last); with y alone one test at lastIndex 0, the start.
function answer(regex, s) {
  regex.lastIndex = 0;
  if (!regex.global) return regex.test(s);
  let found = false;
  s.replace(regex, () => {
    found = true;
    return '';
  });
  return found;
}

function handle(words) {
  switch (words[0]) {
    case 'compile': {
      const flags = words[1] === '-' ? '' : words[1];
      const encoding = flags.includes('u') ? 'utf8' : 'latin1';
      const source = text(words[3], encoding);
      let regex;
      try {
        // Only the given flags (i, m, s, u, g, y): no others, as in every other engine.
        regex = new RegExp(words[2] === 'full' ? `^(?:${source})$` : source, flags);
      } catch (e) {
        return `rejected ${e.name}: ${e.message}`;
      }
      const id = nextId++;
      regexes.set(id, { regex, encoding });
      return LINEAR && !takesLinear(source, flags) ? `ok ${id} fallback ${linearRefusal(source, flags)}` : `ok ${id}`;
    }
    case 'inputs':
      inputs = words.slice(1);
      decoded.clear();
      return 'ok';
    case 'batch': {
      const { regex, encoding } = regexes.get(Number(words[1]));
      const repeat = Number(words[2]);
      if (!decoded.has(encoding)) decoded.set(encoding, inputs.map((hex) => text(hex, encoding)));
      const strings = decoded.get(encoding);
      let matched = 0;
      try {
        const started = performance.now();
        for (let r = 0; r < repeat; r++) {
          for (let i = 0; i < strings.length; i++) if (answer(regex, strings[i])) matched++;
        }
        return `ok ${matched} ${performance.now() - started}`;
      } catch (e) {
        // V8's guard: the backtracking stack outgrew its limit ("Maximum call stack size exceeded").
        if (e instanceof RangeError) return `guarded ${e.name}: ${e.message}`;
        throw e;
      }
    }
    case 'timed': {  // the probe's timing protocol in one request (../README.md)
      const first = handle(['batch', words[1], '1']).split(' ');
      if (first[0] !== 'ok') return first.join(' ');
      let best = Number(first[2]);
      if (best < Number(words[4])) {
        const repeat = Math.min(10000, Math.ceil(Number(words[3]) / Math.max(best, 1e-4)));
        const rounds = best >= Number(words[5]) ? 1 : Number(words[2]);
        for (let r = 0; r < rounds; r++) {
          const reply = handle(['batch', words[1], String(repeat)]).split(' ');
          if (reply[0] !== 'ok') return reply.join(' ');
          best = Math.min(best, Number(reply[2]) / repeat);
        }
      }
      return `ok ${first[1]} ${best}`;
    }
    case 'answers': {
      const { regex, encoding } = regexes.get(Number(words[1]));
      if (!decoded.has(encoding)) decoded.set(encoding, inputs.map((hex) => text(hex, encoding)));
      let bits = '';
      for (const s of decoded.get(encoding)) {
        try {
          bits += answer(regex, s) ? '1' : '0';
        } catch (e) {
          if (!(e instanceof RangeError)) throw e;
          bits += 'g';  // V8's guard, as in a batch
        }
      }
      return `ok ${bits || '-'}`;
    }
    case 'free':
      regexes.delete(Number(words[1]));
      return 'ok';
    default:
      return `error unknown request ${words[0]}`;
  }
}

function* lines() {
  const chunk = Buffer.alloc(1 << 16);
  let pending = [];
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0) return;
    let start = 0;
    for (let i = 0; i < n; i++) {
      if (chunk[i] !== 10) continue;
      pending.push(Buffer.from(chunk.subarray(start, i)));
      yield Buffer.concat(pending).toString('latin1');
      pending = [];
      start = i + 1;
    }
    if (start < n) pending.push(Buffer.from(chunk.subarray(start, n)));
  }
}

for (const line of lines()) {
  fs.writeSync(1, handle(line.split(' ')).replace(/[\r\n]/g, ' ') + '\n');
}
