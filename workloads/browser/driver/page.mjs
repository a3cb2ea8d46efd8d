// `stallbench page`'s driver, one per bench process and browser: starts the browser once, then
// answers one request per line on stdin with one JSON line on stdout, until stdin closes (the line
// protocol of long_task.mjs).
//
//   node page.mjs --browser chromium|firefox --executable PATH --library DIR --pages DIR
//
// A request: {"page": URL (on 127.0.0.1) or FILE (its folder is served), "script": FILE or "",
//             "wait_ms": N (watched after the load and after the script), "step_timeout_ms": N,
//             "references": "web-vitals,lighthouse" (any of them, or ""), "limit_ms": N}
// A response: {"start", "end" (Unix ms), "documents": [what pages/observer.js saw in each document],
//              "clicks": [Unix ms of each click sent], "refused": [hosts], "lighthouse_tbt": ms},
// or {"rejected": "..."} for the user's bad input (a page that does not load, an element that never
// appears, a script that does not run), or {"error": "..."}.
import { readFileSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { isAbsolute, basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import { BROWSER_OPTIONS, startBrowser } from "./browsers.mjs";
import { withLimit } from "./common.mjs";
import { BadInput, namedSelectors, pageObject, runStep } from "./interactions.mjs";
import { serveFolder } from "./server.mjs";

const { values: args } = parseArgs({ options: { ...BROWSER_OPTIONS, pages: { type: "string" } } });
const OBSERVER = readFileSync(join(args.pages, "observer.js"), "utf8");
// The references (npm set web-metrics) beside the browser's set: --library is <npm>/browser/node_modules/<lib>.
const REFERENCES = join(args.library, "..", "..", "..", "web-metrics", "node_modules");
// web-vitals' own INP, in every document: its last report (reportAllChanges) is what observer.js hands over.
// It observes Event Timing from 16 ms, as observer.js does: with its default 40 ms it sees a shorter
// interaction only as the page's first input, and on an idle machine gave 8 ms where the page's
// longest interaction, which INP is, took 24-32 ms.
const WEB_VITALS = () => `${readFileSync(join(REFERENCES, "web-vitals", "dist", "web-vitals.iife.js"), "utf8")}
webVitals.onINP((metric) => { window.stallbenchWebVitalsInp = metric.value; },
                { reportAllChanges: true, durationThreshold: 16 });`;

// Lighthouse's observed TBT (throttlingMethod "provided": the trace's own tasks, no simulation) on the
// same page, in this same Chromium through its DevTools port: Lighthouse starts no browser.
async function lighthouseTbt(url, port) {
  const { default: lighthouse } = await import(pathToFileURL(join(REFERENCES, "lighthouse", "core", "index.js")).href);
  const result = await lighthouse(url, { port, hostname: "127.0.0.1", logLevel: "error", output: "json",
                                         onlyAudits: ["total-blocking-time"], throttlingMethod: "provided",
                                         formFactor: "desktop", screenEmulation: { disabled: true } });
  return result.lhr.audits["total-blocking-time"].numericValue;
}
const LOAD_TIMEOUT_MS = 90_000;  // a loaded 2-core machine took 26 s to a first paint
const unix = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function target(page, servers) {
  if (!isAbsolute(page)) return page;  // a URL, checked by the orchestrator: loopback only
  if (!servers.has(dirname(page))) servers.set(dirname(page), await serveFolder(dirname(page)));
  return `${servers.get(dirname(page)).origin}/${encodeURIComponent(basename(page))}`;
}

// { run: async (page) => ..., selectors: those a declarative list names (a module's are learnt as it runs) }
async function interactions(file) {
  if (!file) return { run: async () => {}, selectors: [] };
  if (file.endsWith(".json")) {
    const steps = JSON.parse(readFileSync(file, "utf8"));
    return { run: async (page) => { for (const step of steps) await runStep(page, step); },
             selectors: namedSelectors(steps) };
  }
  try {
    const module = await import(`${pathToFileURL(file).href}?${statSync(file).mtimeMs}`);
    if (typeof module.default !== "function") throw new Error("its default export is not a function");
    return { run: module.default, selectors: [] };
  } catch (e) {
    throw new BadInput(`the script ${file} cannot run: ${e.message.split("\n")[0]}`);
  }
}

async function measure(session, tab, servers, request, asked) {
  const url = await target(request.page, servers);
  const script = await interactions(request.script);
  const clicks = [];
  const start = unix();
  try {
    await withLimit(tab.goto(url), LOAD_TIMEOUT_MS, "the page's load");
  } catch (e) {
    throw new BadInput(`the page ${request.page} did not load: ${e.message.split("\n")[0]}`);
  }
  await sleep(request.wait_ms);
  const page = pageObject(tab, url, request.step_timeout_ms, () => clicks.push(unix()), script.selectors);
  try {
    await script.run(page);
  } catch (e) {
    if (e instanceof BadInput) throw e;
    throw new BadInput(`the interaction script failed: ${e.message.split("\n")[0]}`);
  }
  await sleep(request.wait_ms);
  const end = unix();
  // A document left in an earlier run that failed may still be stored: it began before this run was asked for.
  const documents = (await tab.evaluate(() => window.stallbenchDrain())).filter((d) => d.origin > asked);
  const reply = { start, end, documents, clicks, refused: session.refused() };
  if (request.references.includes("lighthouse") && session.port) reply.lighthouse_tbt = await lighthouseTbt(url, session.port);
  return reply;
}

const session = await startBrowser(args);
const servers = new Map();
try {
  const tab = await session.newTab();
  await tab.addInitScript(OBSERVER);
  let withWebVitals = false;
  console.log(JSON.stringify({ ready: true, version: session.version }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    try {
      if (request.references.includes("web-vitals") && !withWebVitals) {
        await tab.addInitScript(WEB_VITALS());
        withWebVitals = true;
      }
      const asked = unix();
      await tab.goto("about:blank");
      console.log(JSON.stringify(await withLimit(measure(session, tab, servers, request, asked), request.limit_ms,
                                                 "the page run")));
    } catch (e) {
      const message = e.message.split("\n")[0];
      console.log(JSON.stringify(e instanceof BadInput ? { rejected: message } : { error: message }));
      if (message.startsWith("timeout")) break;  // the page may still be busy: this session is done
    }
  }
} finally {
  for (const server of servers.values()) server.close();
  await session.close();
}
