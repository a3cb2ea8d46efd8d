"use strict";
const { log } = require("./order.cjs");

let micro = 0;
const microSpin = () => {
  log(`micro ${++micro}`);
  if (micro < 3) queueMicrotask(microSpin);
};
queueMicrotask(microSpin);
let ticks = 0;
const tickSpin = () => {
  log(`tick ${++ticks}`);
  if (ticks < 3) process.nextTick(tickSpin);
};
process.nextTick(tickSpin);
setImmediate(() => log("immediate"));
