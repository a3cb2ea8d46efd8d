"use strict";
const { log, busy } = require("./order.cjs");

setTimeout(() => {
  log("A");
  (async () => {
    await null;
    log("A after await clears B");
    clearTimeout(b);
  })();
}, 2);
const b = setTimeout(() => log("B"), 2);
setTimeout(() => log("C"), 2);
setTimeout(() => log("D 3ms"), 3);
busy(5);
