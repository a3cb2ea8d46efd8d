"use strict";
const { log, busy } = require("./order.cjs");

let first;
setImmediate(() => {
  log("I1 arms two 1ms timers");
  first = setTimeout(() => log("T first"), 1);
  setTimeout(() => log("T second"), 1);
  busy(3);
});
setImmediate(() => {
  log("I2 clears the first");
  clearTimeout(first);
});
