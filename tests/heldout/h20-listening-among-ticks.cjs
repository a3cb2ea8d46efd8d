"use strict";
const net = require("node:net");
const { log } = require("./order.cjs");

const server = net.createServer();
server.listen(0, "127.0.0.1", () => {
  log("listening");
  server.close();
});
process.nextTick(() => log("tick"));
Promise.resolve().then(() => log("promise"));
setImmediate(() => log("immediate"));
