"use strict";
const { log } = require("./order.cjs");

setTimeout(() => {
  log("A");
  setTimeout(() => log("timeout 0 from A"), 0);
  setImmediate(() => log("immediate from A"));
  process.nextTick(() => log("tick from A"));
}, 0);
