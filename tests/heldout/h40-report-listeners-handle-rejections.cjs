"use strict";
const { log } = require("./order.cjs");

const rejected = (name) => Object.assign(Promise.reject(new Error(name)), { label: name });
const a = rejected("a");
const b = rejected("b");
const c = rejected("c");
process.on("unhandledRejection", (reason) => {
  log(`unhandledRejection ${reason.message}`);
  if (reason.message === "a") {
    a.catch(() => log("a caught"));
    c.catch(() => log("c caught"));
  }
});
process.on("rejectionHandled", (promise) => log(`rejectionHandled ${promise.label}`));
setTimeout(() => {
  log("timer");
  c.catch(() => log("c caught again"));
  b.catch(() => log("b caught"));
}, 1);
