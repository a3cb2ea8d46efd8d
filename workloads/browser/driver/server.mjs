// The pages' server: 127.0.0.1 only, a fixed list of files (no path from the request reaches the
// file system) and, for the parse, the payload file the bench wrote (setPayload).
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, resolve, sep } from "node:path";

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

// A user's page given as a file: its folder served on 127.0.0.1 (relative links, other pages and
// their scripts load as from a site). Only files inside the folder: a path is resolved and refused
// when it leaves it.
const SITE_TYPES = { ...TYPES, ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml",
                     ".png": "image/png", ".jpg": "image/jpeg", ".mjs": "text/javascript; charset=utf-8" };

export function serveFolder(dir) {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    if (path.endsWith("/")) path += "index.html";
    const file = resolve(join(root, path));
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": SITE_TYPES[extname(file)] ?? "application/octet-stream",
                              "cache-control": "no-store" });
    createReadStream(file).pipe(response);
  });
  return new Promise((done, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => done({ origin: `http://127.0.0.1:${server.address().port}`,
                                               close: () => server.close() }));
  });
}
