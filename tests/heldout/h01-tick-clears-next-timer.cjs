"use strict";
const { log, busy } = require("./order.cjs");

const a = setTimeout(() => {
  log("A");
  process.nextTick(() => {
    log("tick clears B");
    clearTimeout(b);
  });
}, 5);
const b = setTimeout(() => log("B"), 5);
setTimeout(() => log("C"), 5);
busy(8);
