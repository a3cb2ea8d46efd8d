"use strict";
const { log } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
process.nextTick(() => {
  log("t1 throws");
  throw new Error("t1");
});
process.nextTick(() => log("t2"));
Promise.resolve().then(() => log("promise"));
setImmediate(() => log("immediate"));
