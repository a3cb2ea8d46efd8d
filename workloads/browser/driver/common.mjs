// What both browsers' starters share: a time limit on a promise, and the removal of throwaway
// profiles whose driver is gone.
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
