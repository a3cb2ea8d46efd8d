// What both browsers' starters share: a time limit on a promise, the removal of throwaway profiles
// whose driver is gone, and waiting for the protocol endpoint a browser prints on stderr.
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
