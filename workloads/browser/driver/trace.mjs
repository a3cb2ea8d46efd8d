// `stallbench trace --browser`'s driver: runs page scenarios in Chromium and prints, as one JSON
// line, the order their labels came out in on each run.
//
//   node trace.mjs --chromium PATH --playwright DIR --pages DIR < {"scenarios": [{"file", "program",
//       "runs"}], "limit_ms": N}
//   -> {"chromium": VERSION, "scenarios": [{"file", "orders": [[label, ...], ...]} | {"file", "error"}]}
//
// Every run loads the page afresh. A run that overruns limit_ms ends the session (the page may still
// be busy): it and the scenarios after it carry an error.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { startChromium, withLimit } from "./chromium.mjs";
import { servePages } from "./server.mjs";

const { values: args } = parseArgs({ options: { chromium: { type: "string" }, playwright: { type: "string" },
                                                pages: { type: "string" } } });
const { scenarios, limit_ms: limitMs } = JSON.parse(readFileSync(0, "utf8"));

const session = await startChromium({ chromium: args.chromium, playwright: args.playwright });
try {
  const server = await servePages(args.pages, ["trace.html", "trace.js"]);
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 800, height: 600 });
  const cdp = await session.context.newCDPSession(page);
  // A user's click for the `click` op: sent through the protocol's input events, not awaited (the
  // browser acknowledges it only once the page has handled it).
  await page.exposeFunction("stallbenchUserClick", () => {
    for (const type of ["mousePressed", "mouseReleased"])
      cdp.send("Input.dispatchMouseEvent", { type, x: 400, y: 300, button: "left", clickCount: 1 }).catch(() => {});
  });
  const results = [];
  let stopped = "";
  for (const scenario of scenarios) {
    if (stopped) {
      results.push({ file: scenario.file, error: `not run: ${stopped}` });
      continue;
    }
    const orders = [];
    try {
      for (let run = 0; run < scenario.runs; run++) {
        await page.goto(`${server.origin}/trace.html`);
        orders.push(await withLimit(page.evaluate((program) => window.runScenario(program), scenario.program),
                                    limitMs, "the scenario"));
      }
      results.push({ file: scenario.file, orders });
    } catch (e) {
      const error = e.message.split("\n")[0];
      results.push({ file: scenario.file, error });
      if (error.startsWith("timeout")) stopped = `an earlier scenario overran (${error})`;
    }
  }
  server.close();
  console.log(JSON.stringify({ chromium: session.version, scenarios: results }));
} finally {
  await session.close();
}
