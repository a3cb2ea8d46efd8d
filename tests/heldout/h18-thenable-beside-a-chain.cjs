"use strict";
const { log } = require("./order.cjs");

Promise.resolve({
  then(resolve) {
    log("thenable's then called");
    resolve();
  },
}).then(() => log("after the thenable"));
Promise.resolve()
  .then(() => log("p1"))
  .then(() => log("p2"))
  .then(() => log("p3"));
process.nextTick(() => log("tick"));
