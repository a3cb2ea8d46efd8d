// `stallbench trace --browser`'s driver: runs page scenarios in one browser and prints, as one JSON
// line, the order their labels came out in on each run.
//
//   node trace.mjs --browser chromium|firefox --executable PATH --library DIR --pages DIR
//       < {"scenarios": [{"file", "program", "runs"}], "limit_ms": N}
//   -> {"version": VERSION, "scenarios": [{"file", "orders": [[label, ...], ...]} | {"file", "error"}]}
//
// Every run loads the page afresh. A run that overruns limit_ms ends the session (the page may still
// be busy): it and the scenarios after it carry an error.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import { BROWSER_OPTIONS, startBrowser } from "./browsers.mjs";
import { withLimit } from "./common.mjs";
import { servePages } from "./server.mjs";

const { values: args } = parseArgs({ options: { ...BROWSER_OPTIONS, pages: { type: "string" } } });
const { scenarios, limit_ms: limitMs } = JSON.parse(readFileSync(0, "utf8"));

const session = await startBrowser(args);
try {
  const server = await servePages(args.pages, ["trace.html", "trace.js"]);
  const tab = await session.newTab();
  // A user's click for the `click` op: sent through the protocol's input events, not awaited (the
  // browser acknowledges it only once the page has handled it).
  await tab.exposeFunction("stallbenchUserClick", () => { tab.click(400, 300).catch(() => {}); });
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
        await tab.goto(`${server.origin}/trace.html`);
        orders.push(await withLimit(tab.evaluate((program) => window.runScenario(program), scenario.program),
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
  console.log(JSON.stringify({ version: session.version, scenarios: results }));
} finally {
  await session.close();
}
