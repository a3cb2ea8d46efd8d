'use strict';
// How busy the machine's cores were: the first line of /proc/stat (every core's time in ticks),
// read once a period, as the share of all the cores' time that was not idle in between. It tells a
// wait for a core from a wait for a thread when the verdict is explained. Null where /proc/stat
// cannot be read.
const fs = require('fs');

function ticks() {
  try {
    const text = fs.readFileSync('/proc/stat', 'latin1');
    const fields = text.slice(0, text.indexOf('\n')).trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: fields[3] + (fields[4] || 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch (error) {
    return null;
  }
}

// Returns take(): the busy share of the cores since the previous take (or since this call).
function machineBusy() {
  let last = ticks();
  return () => {
    const now = ticks();
    const busy = now && last && now.total > last.total
      ? Math.round((1 - (now.idle - last.idle) / (now.total - last.total)) * 1000) / 1000 : null;
    last = now;
    return busy;
  };
}

module.exports = { machineBusy };
