"use strict";
const { log } = require("./order.cjs");

setImmediate(() => {
  log("I1");
  setImmediate(() => log("I next iteration"));
  queueMicrotask(() => {
    log("microtask clears I2");
    clearImmediate(i2);
  });
});
const i2 = setImmediate(() => log("I2"));
setImmediate(() => log("I3"));
