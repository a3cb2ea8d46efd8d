"use strict";
const { log, printAfterExitListeners } = require("./order.cjs");

process.on("exit", () => {
  log("exit 1");
  process.nextTick(() => log("tick queued at exit, never run"));
});
process.on("exit", () => log("exit 2"));
printAfterExitListeners();
process.nextTick(() => log("tick"));
setImmediate(() => log("immediate"));
