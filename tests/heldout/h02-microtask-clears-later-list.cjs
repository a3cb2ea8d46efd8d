"use strict";
const { log, busy } = require("./order.cjs");

setTimeout(() => {
  log("A 1ms");
  queueMicrotask(() => {
    log("microtask clears B");
    clearTimeout(b);
  });
}, 1);
const b = setTimeout(() => log("B 2ms"), 2);
setTimeout(() => log("C 3ms"), 3);
busy(6);
