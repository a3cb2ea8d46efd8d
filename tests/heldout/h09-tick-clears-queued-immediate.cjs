"use strict";
const { log } = require("./order.cjs");

setImmediate(() => log("I1"));
setImmediate(() => {
  log("I2");
  process.nextTick(() => {
    log("tick clears I3");
    clearImmediate(i3);
  });
});
const i3 = setImmediate(() => log("I3"));
setImmediate(() => log("I4"));
