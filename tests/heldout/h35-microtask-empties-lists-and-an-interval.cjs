"use strict";
const { log, busy } = require("./order.cjs");

setTimeout(() => {
  log("A 1ms");
  Promise.resolve().then(() => {
    log("promise clears B, V and C");
    clearTimeout(b);
    clearInterval(v);
    clearTimeout(c);
  });
}, 1);
const b = setTimeout(() => log("B 2ms"), 2);
let ticks = 0;
const v = setInterval(() => {
  if (++ticks === 2) clearInterval(v);
  log("V 2ms");
}, 2);
const c = setTimeout(() => log("C 3ms"), 3);
setTimeout(() => log("E 4ms"), 4);
busy(6);
