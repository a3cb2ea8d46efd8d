"use strict";
const { log, busy } = require("./order.cjs");

Promise.all([
  new Promise((resolve) => setTimeout(() => {
    log("a 1ms");
    Promise.resolve().then(() => log("promise of a"));
    resolve();
  }, 1)),
  new Promise((resolve) => setTimeout(() => {
    log("b 2ms");
    resolve();
  }, 2)),
]).then(() => log("all"));
setTimeout(() => log("c 2ms"), 2);
busy(4);
