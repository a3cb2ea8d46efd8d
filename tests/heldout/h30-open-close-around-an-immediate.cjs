"use strict";
const fs = require("node:fs");
const { log } = require("./order.cjs");

fs.open(__filename, "r", (error, fd) => {
  if (error) throw error;
  log("opened");
  fs.close(fd, (error) => {
    if (error) throw error;
    log("closed");
  });
  setImmediate(() => log("immediate"));
  Promise.resolve().then(() => log("promise"));
});
