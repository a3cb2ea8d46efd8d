// The proxy every browser the drivers start is pointed at, on 127.0.0.1: it refuses every request
// (403, and CONNECT for https) and keeps the hosts asked for. Both browsers send loopback requests
// directly (Chromium always; Firefox with network.proxy.allow_hijacking_localhost off) and every
// other request here, so a page that names another host -- a font, an analytics script -- sends
// nothing past this machine, and the driver can say what was refused.
import { createServer } from "node:http";

export function startRefusingProxy() {
  const refused = new Set();
  const server = createServer((request, response) => {
    refused.add(new URL(request.url, "http://unknown").host);
    response.writeHead(403, { "content-type": "text/plain" }).end("stallbench: only 127.0.0.1 is reachable\n");
  });
  // The tunnel's socket is ours once "connect" is emitted, with no error listener of the server's: a
  // browser that resets it (it may, having been refused) would otherwise end the driver with an
  // unhandled ECONNRESET, as it did on a busy machine. A reset of a refused tunnel is no error.
  server.on("connect", (request, socket) => {
    refused.add(request.url);
    socket.on("error", () => {});
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({
      address: `127.0.0.1:${server.address().port}`,
      port: server.address().port,
      refused: () => [...refused].sort(),
      close: () => server.close(),
    }));
  });
}
