"use strict";
const { log } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
queueMicrotask(() => {
  log("m1 throws");
  throw new Error("m1");
});
queueMicrotask(() => log("m2"));
process.nextTick(() => log("tick"));
setImmediate(() => log("immediate"));
