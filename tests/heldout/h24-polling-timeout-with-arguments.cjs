"use strict";
const { log } = require("./order.cjs");

let calls = 0;
const poll = (...args) => {
  log(`${["poll", ...args].join(" ")} ${++calls}`);
  process.nextTick(() => log("tick"));
  if (calls < 3) setTimeout(poll, 2, "x");
};
setTimeout(poll, 2, "x");
