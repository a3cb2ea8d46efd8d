"use strict";
const { log } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
setImmediate(() => {
  log("I1 throws");
  Promise.resolve().then(() => log("promise of I1"));
  throw new Error("I1");
});
setImmediate(() => log("I2"));
setImmediate(() => log("I3"));
