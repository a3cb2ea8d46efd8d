// What both browsers' starters share: a time limit on a promise, the removal of throwaway profiles
// whose driver is gone, waiting for the protocol endpoint a browser prints on stderr, and a tab's
// count of documents.
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

// A driver killed with its cell (a timeout) cannot remove its profile: the next one does, for every
// profile whose driver is gone.
export function removeOrphanedProfiles(prefix) {
  for (const name of readdirSync(tmpdir())) {
    const owner = name.startsWith(prefix) ? Number(name.slice(prefix.length).split("-")[0]) : 0;
    if (owner > 0 && !alive(owner)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

// Rejects with "timeout: ..." when `promise` has not settled within `ms`.
export function withLimit(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout: ${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// Resolves with the endpoint URL the browser prints on stderr (`pattern`'s first group), rejects
// when it exits, cannot start or says nothing of the kind within `ms`. `said` keeps its last 20
// lines, for the error of a browser that gives up later.
export function listeningEndpoint(child, said, name, pattern, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${ms / 1000} s`)), ms);
    child.stderr.on("data", (data) => {
      said.push(...String(data).split("\n").filter(Boolean));
      said.splice(0, Math.max(0, said.length - 20));
      const found = said.join("\n").match(pattern);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.on("error", (e) => { clearTimeout(timer); reject(new Error(`cannot start ${name}: ${e.message}`)); });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it listened: ${said.at(-1) ?? "no output"}`));
    });
  });
}

// How many documents the main frame of `page` (playwright's or puppeteer's: the same events) has
// begun: a navigation counts when its request is sent, before the old document goes, and again
// when it commits (a same-document navigation too). interactions.mjs trusts an element's last
// known place only while this has not moved.
export function documentCounter(page) {
  let begun = 0;
  const main = (frame) => frame === page.mainFrame();
  page.on("request", (request) => {
    try {
      if (request.isNavigationRequest() && main(request.frame())) begun += 1;
    } catch { /* a service worker's request has no frame */ }
  });
  page.on("framenavigated", (frame) => { if (main(frame)) begun += 1; });
  return () => begun;
}
