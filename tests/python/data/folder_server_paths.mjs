// Asks the page server of a user's folder (serveFolder) for paths a real site's links produce and
// paths that try to leave the folder, and prints each path's status and body as one JSON line. The
// folder: index.html, "100%.png" (a literal % in a name), "é.html", a page in a subfolder, a link to
// a file inside, links to a file and a folder outside, and a file no one may read. After every
// request the server is asked for "/" again, to show it still answers. The caller removes the
// folder (its name is printed): the script ends as a user who cannot.
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { serveFolder } from "../../../workloads/browser/driver/server.mjs";

const top = mkdtempSync(join(tmpdir(), "folder-server-"));
const site = join(top, "site");
mkdirSync(join(site, "sub"), { recursive: true });
writeFileSync(join(top, "secret.txt"), "secret");
writeFileSync(join(site, "index.html"), "index");
writeFileSync(join(site, "100%.png"), "percent");
writeFileSync(join(site, "é.html"), "accent");
writeFileSync(join(site, "sub", "index.html"), "sub");
writeFileSync(join(site, "locked.html"), "locked");
chmodSync(join(site, "locked.html"), 0o000);
symlinkSync(join(site, "sub", "index.html"), join(site, "inside-link.html"));
symlinkSync(join(top, "secret.txt"), join(site, "outside-link.txt"));
symlinkSync(top, join(site, "up"));
for (const folder of [top, site, join(site, "sub")]) chmodSync(folder, 0o755);
if (process.getuid() === 0) process.setuid(65534);  // root reads any file: nobody cannot read locked.html

const server = await serveFolder(site);
const paths = ["/", "/100%.png", "/100%25.png", "/%C3%A9.html", "/sub/", "/inside-link.html", "/outside-link.txt",
               "/up/secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%E0%A4%A", "/%00", "/a%00b.html",
               "/sub", "/missing.html", "/locked.html"];
const answers = {};
for (const path of paths) {
  const response = await fetch(server.origin + path);
  answers[path] = [response.status, response.status === 200 ? await response.text() : ""];
  const alive = await fetch(server.origin + "/");
  if (alive.status !== 200) answers[path].push("the server stopped answering");
}
server.close();
console.log(JSON.stringify({ folder: top, answers }));
