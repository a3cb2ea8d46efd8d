"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { log } = require("./order.cjs");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "heldout-"));
process.on("exit", () => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFile(path.join(tmp, "missing", "out.txt"), "x".repeat(10), (error) => {
  if (!error || error.code !== "ENOENT") throw new Error("expected ENOENT");
  log("write failed");
  Promise.resolve().then(() => log("promise"));
  process.nextTick(() => log("tick"));
  setImmediate(() => log("immediate"));
});
