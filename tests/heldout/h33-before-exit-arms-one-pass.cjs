"use strict";
const { log, busy } = require("./order.cjs");

process.once("beforeExit", () => {
  log("beforeExit arms timers");
  setTimeout(() => {
    log("A");
    process.nextTick(() => {
      log("tick of A clears B and C");
      clearTimeout(b);
      clearTimeout(c);
    });
  }, 1);
  const b = setTimeout(() => log("B"), 1);
  const c = setTimeout(() => log("C 2ms"), 2);
  setTimeout(() => log("D 3ms"), 3);
  busy(5);
});
