'use strict';
// V8's RegExp served to stallbench's C++ node adapter (node_engine.cc): one JSON request per line
// on stdin, one JSON reply per line on stdout. Synchronous on purpose: no event loop is involved,
// only the regex engine, and each batch is timed here so the pipe is not measured.
//
//   {"op":"compile","pattern":"^a+$","flags":"i","full":false}
//                                             -> {"id":0} or {"status":"rejected","message":...}
//   {"op":"inputs","inputs":["aaa!"]}         -> {}   the inputs of the batches that follow
//   {"op":"batch","id":0,"repeat":5}          -> {"matched":0,"ms":0.004}
//                                                or {"status":"guarded","message":...}
//   {"op":"free","id":0}                      -> {}
// The inputs are sent once and kept: every timed batch of a cell matches the same ones.
const fs = require('fs');

const regexes = new Map();
let nextId = 0;
let inputs = [];

function handle(request) {
  switch (request.op) {
    case 'compile':
      try {
        // Only the entry's flags (i, m, s, u): no others, as in every other adapter.
        const id = nextId++;
        regexes.set(id, new RegExp(request.full ? `^(?:${request.pattern})$` : request.pattern, request.flags));
        return { id };
      } catch (e) {
        return { status: 'rejected', message: `${e.name}: ${e.message}` };
      }
    case 'inputs':
      inputs = request.inputs;
      return {};
    case 'batch': {
      const { repeat } = request;
      const regex = regexes.get(request.id);
      let matched = 0;
      try {
        const started = performance.now();
        for (let r = 0; r < repeat; r++) {
          for (let i = 0; i < inputs.length; i++) if (regex.test(inputs[i])) matched++;
        }
        return { matched, ms: performance.now() - started };
      } catch (e) {
        // V8's guard: the backtracking stack outgrew its limit ("Maximum call stack size exceeded").
        if (e instanceof RangeError) return { status: 'guarded', message: `${e.name}: ${e.message}` };
        throw e;
      }
    }
    case 'free':
      regexes.delete(request.id);
      return {};
    default:
      throw new Error(`unknown op ${request.op}`);
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
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      start = i + 1;
    }
    if (start < n) pending.push(Buffer.from(chunk.subarray(start, n)));
  }
}

for (const line of lines()) {
  fs.writeSync(1, JSON.stringify(handle(JSON.parse(line))) + '\n');
}
