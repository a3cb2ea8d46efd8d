"use strict";
const { log } = require("./order.cjs");

let calls = 0;
const listener = () => {
  if (++calls === 2) process.off("beforeExit", listener);
  log("beforeExit");
  setImmediate(() => log("immediate from beforeExit"));
  Promise.resolve().then(() => log("promise from beforeExit"));
};
process.on("beforeExit", listener);
setTimeout(() => log("timer"), 1);
