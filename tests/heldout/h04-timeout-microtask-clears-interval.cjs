"use strict";
const { log, busy } = require("./order.cjs");

let ticks = 0;
const v = setInterval(() => {
  log("V");
  if (++ticks === 3) clearInterval(v);
}, 4);
setTimeout(() => {
  log("T");
  Promise.resolve().then(() => {
    log("TQ clears V");
    clearInterval(v);
  });
}, 4);
setTimeout(() => log("T2"), 4);
busy(7);
