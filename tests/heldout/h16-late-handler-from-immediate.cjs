"use strict";
const { log } = require("./order.cjs");

process.on("unhandledRejection", (reason) => log(`unhandledRejection ${reason.message}`));
process.on("rejectionHandled", (promise) => log(`rejectionHandled ${promise.label}`));
const late = Promise.reject(new Error("late"));
late.label = "late";
const early = Promise.reject(new Error("early"));
queueMicrotask(() => {
  log("microtask catches early");
  early.catch(() => log("early caught"));
});
setImmediate(() => {
  log("immediate catches late");
  late.catch(() => log("late caught"));
  process.nextTick(() => log("tick after the catch"));
});
