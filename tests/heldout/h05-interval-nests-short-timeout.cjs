"use strict";
const { log } = require("./order.cjs");

let ticks = 0;
const v = setInterval(() => {
  if (++ticks === 3) clearInterval(v);
  log("V");
  setTimeout(() => log("inner"), 1);
}, 10);
