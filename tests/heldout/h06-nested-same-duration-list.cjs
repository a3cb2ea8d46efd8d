"use strict";
const { log, busy } = require("./order.cjs");

setTimeout(() => {
  log("A");
  setTimeout(() => log("B nested in A"), 2);
  process.nextTick(() => {
    log("tick of A");
    setTimeout(() => log("C from the tick"), 2);
  });
}, 2);
setTimeout(() => log("D"), 2);
busy(4);
