// Asks the drivers' refusing proxy (workloads/browser/driver/refuse.mjs) for tunnels and requests and
// resets each connection at a different moment, as a browser may; prints the hosts the proxy
// refused, as one JSON line, if the process is still alive after all of them.
import net from "node:net";

import { startRefusingProxy } from "../../../workloads/browser/driver/refuse.mjs";

const proxy = await startRefusingProxy();

function exchange(text, resetWhen) {
  return new Promise((resolve) => {
    const socket = net.connect(proxy.port, "127.0.0.1", () => {
      socket.write(text);
      if (resetWhen === "at once") socket.resetAndDestroy();
    });
    socket.once("data", () => { if (resetWhen === "on the answer") socket.resetAndDestroy(); else socket.end(); });
    socket.on("error", () => {});
    socket.on("close", resolve);
  });
}

const tunnel = (host) => `CONNECT ${host}:443 HTTP/1.1\r\nHost: ${host}:443\r\n\r\n`;
const request = (host) => `GET http://${host}/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
await exchange(tunnel("reset-on-answer.example"), "on the answer");
await exchange(tunnel("reset-at-once.example"), "at once");
await exchange(request("request-reset.example"), "on the answer");
await exchange(tunnel("closed.example"), "never");
await new Promise((resolve) => setTimeout(resolve, 200));  // a late error event would come in here
console.log(JSON.stringify(proxy.refused()));
proxy.close();
