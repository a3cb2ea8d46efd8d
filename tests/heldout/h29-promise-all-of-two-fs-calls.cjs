"use strict";
const fs = require("node:fs");
const { log } = require("./order.cjs");

Promise.all([
  new Promise((resolve) => fs.readFile(__filename, (error) => {
    if (error) throw error;
    resolve();
  })),
  new Promise((resolve) => fs.stat(__filename, (error) => {
    if (error) throw error;
    resolve();
  })),
]).then(() => {
  log("both done");
  setImmediate(() => log("immediate after both"));
  process.nextTick(() => log("tick after both"));
});
process.nextTick(() => log("tick"));
