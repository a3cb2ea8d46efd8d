// The pages' server: 127.0.0.1 only, a fixed list of files (no path from the request reaches the
// file system) and, for the parse, the payload file the bench wrote (setPayload).
import { createReadStream, readFileSync, realpathSync, statSync } from "node:fs";
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
      send(createReadStream(payload), response);
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

// A file streamed as the answer; one that cannot be read after all (removed, unreadable) ends the
// answer rather than, unhandled, the driver.
function send(stream, response) {
  stream.on("error", () => (response.headersSent ? response.destroy() : response.writeHead(404).end()));
  stream.pipe(response);
}

// A user's page given as a file: its folder served on 127.0.0.1 (relative links, other pages and
// their scripts load as from a site). Only files inside the folder: a path that leaves it, by `..` or
// through a link to a file outside it, is not served, and the link is named on stderr (the cell's log).
const SITE_TYPES = { ...TYPES, ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml",
                     ".png": "image/png", ".jpg": "image/jpeg", ".mjs": "text/javascript; charset=utf-8" };

// A request's path as a file name: %XX escapes decoded where they are UTF-8, any other `%` kept as it
// is (a link to `100%.png` arrives as /100%.png, which decodeURIComponent throws on), as file servers do.
function decodedPath(url) {
  const path = new URL(url, "http://127.0.0.1").pathname;
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}

// The file inside `root` (a real path) that `path` names, or null.
function fileInside(root, path) {
  let file, isFile;
  try {
    file = realpathSync(join(root, path.endsWith("/") ? `${path}index.html` : path));
    isFile = statSync(file).isFile();
  } catch {
    return null;  // no such file (or gone since, or a name no file can have, such as one with a NUL)
  }
  if (!file.startsWith(root + sep)) {
    if (resolve(join(root, path)).startsWith(root + sep)) {  // a link, not a `..` path
      console.error(`stallbench page: not served: ${path} links to ${file}, outside ${root}`);
    }
    return null;
  }
  return isFile ? file : null;
}

export function serveFolder(dir) {
  const root = realpathSync(resolve(dir));
  const server = createServer((request, response) => {
    const file = fileInside(root, decodedPath(request.url));
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.setHeader("content-type", SITE_TYPES[extname(file)] ?? "application/octet-stream");
    response.setHeader("cache-control", "no-store");
    send(createReadStream(file), response);
  });
  return new Promise((done, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => done({ origin: `http://127.0.0.1:${server.address().port}`,
                                               close: () => server.close() }));
  });
}
