// The pages' server: 127.0.0.1 only, a fixed list of files (no path from the request reaches the
// file system) and, for the parse, the payload file the bench wrote (setPayload).
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

// files: the names under `dir` that may be served.
export function servePages(dir, files) {
  let payload = null;
  const pages = new Map(files.map((name) => [`/${name}`, { body: readFileSync(join(dir, name)),
                                                           type: TYPES[name.slice(name.lastIndexOf("."))] }]));
  const server = createServer((request, response) => {
    const path = new URL(request.url, "http://127.0.0.1").pathname;
    const page = pages.get(path);
    if (page) {
      response.writeHead(200, { "content-type": page.type, "cache-control": "no-store" });
      response.end(page.body);
    } else if (path === "/payload" && payload) {
      response.writeHead(200, { "content-type": "application/json", "content-length": statSync(payload).size,
                                "cache-control": "no-store" });
      createReadStream(payload).pipe(response);
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve({
      origin: `http://127.0.0.1:${server.address().port}`,
      setPayload: (file) => { payload = file; },  // served as /payload
      close: () => server.close(),
    }));
  });
}
