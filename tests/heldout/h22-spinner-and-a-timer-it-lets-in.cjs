"use strict";
const { log, busy } = require("./order.cjs");

setImmediate(() => {
  log("A arms a timer");
  setTimeout(() => log("T"), 1);
  busy(3);
});
let calls = 0;
const spin = () => {
  log(`spin ${++calls}`);
  if (calls < 3) setImmediate(spin);
};
setImmediate(spin);
