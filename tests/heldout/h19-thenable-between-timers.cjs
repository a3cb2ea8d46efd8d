"use strict";
const { log, busy } = require("./order.cjs");

setTimeout(() => {
  log("A");
  Promise.resolve({
    then(resolve) {
      log("thenable in A");
      resolve();
    },
  }).then(() => {
    log("after the thenable clears B");
    clearTimeout(b);
  });
  process.nextTick(() => log("tick of A"));
}, 1);
const b = setTimeout(() => log("B"), 1);
setTimeout(() => log("C"), 1);
busy(3);
