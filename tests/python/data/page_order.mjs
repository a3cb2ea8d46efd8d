// Loads one page of --pages (--page NAME) in a browser, the way the family's drivers start it, and
// prints the order `window.runProgram()` resolves with (the page's own script's), as one JSON line;
// --times N loads it N times in the one browser (a line each), so a test pays for one start only.
import { parseArgs } from "node:util";

import { BROWSER_OPTIONS, startBrowser } from "../../../workloads/browser/driver/browsers.mjs";
import { servePages } from "../../../workloads/browser/driver/server.mjs";

const { values: args } = parseArgs({ options: { ...BROWSER_OPTIONS, pages: { type: "string" }, page: { type: "string" },
  times: { type: "string", default: "1" } } });
const session = await startBrowser(args);
try {
  const server = await servePages(args.pages, [args.page]);
  const tab = await session.newTab();
  for (let i = 0; i < Number(args.times); i++) {
    await tab.goto(`${server.origin}/${args.page}`);
    console.log(JSON.stringify(await tab.evaluate(() => window.runProgram())));
  }
  server.close();
} finally {
  await session.close();
}
