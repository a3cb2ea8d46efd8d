"use strict";
const net = require("node:net");
const { log } = require("./order.cjs");

let calls = 0;
const spin = () => {
  log(`spin ${++calls}`);
  if (calls < 4) setImmediate(spin);
};
setImmediate(spin);
setImmediate(() => {
  log("immediate listens");
  const server = net.createServer();
  server.listen(0, "127.0.0.1", () => {
    server.close();
    log("listening");
  });
});
