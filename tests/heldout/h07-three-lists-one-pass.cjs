"use strict";
const { log, busy } = require("./order.cjs");

for (const ms of [1, 2, 3]) {
  setTimeout(() => {
    log(`t${ms}`);
    Promise.resolve().then(() => log(`p${ms}`));
  }, ms);
}
setImmediate(() => log("immediate"));
busy(5);
