"use strict";
const { log, busy } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
setTimeout(() => {
  log("A throws");
  process.nextTick(() => log("tick of A"));
  throw new Error("A");
}, 1);
setTimeout(() => {
  log("B");
  process.nextTick(() => log("tick of B"));
}, 1);
setTimeout(() => log("C 2ms"), 2);
busy(4);
