"use strict";
const { log, busy } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
setImmediate(() => {
  log("I1");
  setTimeout(() => log("T"), 1);
  busy(3);
  process.nextTick(() => {
    log("t1 throws");
    throw new Error("t1");
  });
  process.nextTick(() => log("t2"));
});
setImmediate(() => log("I2"));
