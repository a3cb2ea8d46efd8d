"use strict";
const fs = require("node:fs");
const { log } = require("./order.cjs");

process.on("uncaughtException", () => log("uncaughtException"));
fs.stat(__filename, (error) => {
  if (error) throw error;
  log("stat");
  process.nextTick(() => {
    log("t1 throws");
    throw new Error("t1");
  });
  process.nextTick(() => log("t2"));
  Promise.resolve().then(() => log("promise"));
  setImmediate(() => log("immediate"));
});
