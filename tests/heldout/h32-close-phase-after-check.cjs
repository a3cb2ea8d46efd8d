"use strict";
const fs = require("node:fs");
const net = require("node:net");
const { log } = require("./order.cjs");

fs.readFile(__filename, (error) => {
  if (error) throw error;
  log("read");
  const socket = net.connect({ host: "127.0.0.1", port: 9 });
  socket.on("close", () => log("socket closed"));
  socket.destroy();
  setImmediate(() => log("immediate"));
});
