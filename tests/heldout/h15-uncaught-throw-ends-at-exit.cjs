"use strict";
const { log, busy, printAfterExitListeners } = require("./order.cjs");

process.on("exit", () => {
  log("exit");
  setImmediate(() => log("queued at exit, never run"));
});
printAfterExitListeners();
setImmediate(() => {
  log("I");
  setTimeout(() => {
    log("T throws");
    throw new Error("T");
  }, 1);
  setImmediate(() => log("I2 never"));
  busy(3);
});
