"use strict";
const { log } = require("./order.cjs");

let ticks = 0;
const v = setInterval((a, b) => {
  if (++ticks === 5) clearInterval(v);
  log(`V ${a} ${b}`);
  setImmediate(() => {
    log("immediate stops V");
    clearInterval(v);
  });
}, 5, "a", "b");
