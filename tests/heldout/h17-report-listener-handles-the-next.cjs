"use strict";
const { log } = require("./order.cjs");

const first = Promise.reject(new Error("first"));
const second = Promise.reject(new Error("second"));
process.on("unhandledRejection", (reason) => {
  log(`unhandledRejection ${reason.message}`);
  if (reason.message === "first") second.catch(() => log("second caught"));
});
