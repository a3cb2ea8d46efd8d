'use strict';
// Where the probe's JSON lines go (STALLBENCH_PROBE_OUT): a file (appended to), fd:N, or none (no
// file: the exporters alone). Lines are kept until flush() and written in one write, each with the
// process's pid. A write that fails (the file went away, the disk is full) is said once on stderr and
// ends the writing, not the program, nor the probe's exporters.
const fs = require('fs');

// Throws an Error whose message is the one line the probe refuses with.
function open(target) {
  if (target === 'none') return null;
  const fd = /^fd:(\d+)$/.exec(target);
  if (fd) {
    try {
      fs.fstatSync(Number(fd[1]));
    } catch (error) {
      throw new Error(`STALLBENCH_PROBE_OUT=${target}: descriptor ${fd[1]} is not open (${error.code})`);
    }
    return Number(fd[1]);
  }
  try {
    return fs.openSync(target, 'a');
  } catch (error) {
    throw new Error(`cannot write ${target} (${error.code}): set STALLBENCH_PROBE_OUT to a writable file, fd:N or none`);
  }
}

class Output {
  constructor(target) {
    this.target = target;
    this.fd = open(target);
    this.lines = [];
  }

  write(record) {
    if (this.fd !== null) this.lines.push(JSON.stringify({ pid: process.pid, ...record }));
  }

  flush() {
    if (!this.lines.length) return;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    try {
      fs.writeSync(this.fd, text);
    } catch (error) {
      fs.writeSync(2, `stallbench probe: writing ${this.target} failed (${error.code}); no more samples\n`);
      this.fd = null;
    }
  }
}

module.exports = { Output };
