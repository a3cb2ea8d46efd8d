// The browser family's driver, one per bench process and browser: starts the browser and the pages'
// server once, then answers one request per line on stdin with one JSON line on stdout, until stdin
// closes.
//
//   node long_task.mjs --browser chromium|firefox --executable PATH --library DIR --pages DIR
//
// First line out: {"ready": true, "version": VERSION}. A request:
//   {"work": "report"|"parse", "size": N, "payload": FILE (the parse's), "strategy": S, "chunk": N,
//    "click_ms": N, "lead_ms": N, "tail_ms": N, "limit_ms": N}
// A response: what the page measured (long_task.js) plus clicks_sent, click_ms and sent_at (each
// click's send time on the page's clock: Node's and the page's time origins are both Unix times), or
// {"rejected": "..."} (the browser lacks the strategy's API), or {"error": "..."}. Each run reloads
// the page, so nothing of one repetition (heap, observers) reaches the next.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

import { BROWSER_OPTIONS, startBrowser } from "./browsers.mjs";
import { withLimit } from "./common.mjs";
import { servePages } from "./server.mjs";

const { values: args } = parseArgs({ options: { ...BROWSER_OPTIONS, pages: { type: "string" } } });
const PAGE_FILES = ["long_task.html", "long_task.js", "work.js", "worker.js"];
const ACK_TIMEOUT_MS = 30_000;

// Clicks at a fixed rate in the middle of the button, each sent without waiting: the browser queues
// them while the page's main thread is busy, as it does a user's. `pageOrigin`: the page's
// performance.timeOrigin, to put each send time on the page's clock.
function startClicking(tab, everyMs, pageOrigin) {
  const acks = [], sentAt = [];
  const timer = setInterval(() => {
    sentAt.push(performance.timeOrigin + performance.now() - pageOrigin);
    acks.push(tab.click(400, 300));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await withLimit(Promise.all(acks), ACK_TIMEOUT_MS, "the browser's acknowledgement of the clicks");
      return { clicks_sent: acks.length, sent_at: sentAt, click_ms: everyMs };
    },
  };
}

async function measure(tab, server, request) {
  server.setPayload(request.payload || null);
  await tab.goto(`${server.origin}/long_task.html`);
  const missing = await tab.evaluate((strategy) => window.missingApi(strategy), request.strategy);
  if (missing) return { rejected: missing };
  const pageOrigin = await tab.evaluate(([work, size]) => window.prepare(work, size), [request.work, request.size]);
  const clicking = startClicking(tab, request.click_ms, pageOrigin);
  let result;
  try {
    result = await tab.evaluate((r) => window.measure({ work: r.work, strategy: r.strategy, chunk: r.chunk,
                                                        leadMs: r.lead_ms, tailMs: r.tail_ms }), request);
  } finally {
    result = { ...result, ...await clicking.stop() };
  }
  return { ...result, ...await tab.evaluate((sent) => window.collect(sent), result.clicks_sent) };
}

const session = await startBrowser(args);
try {
  const server = await servePages(args.pages, PAGE_FILES);
  const tab = await session.newTab();
  console.log(JSON.stringify({ ready: true, version: session.version }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    try {
      console.log(JSON.stringify(await withLimit(measure(tab, server, request), request.limit_ms,
                                                 "the page run")));
    } catch (e) {
      console.log(JSON.stringify({ error: e.message.split("\n")[0] }));
      if (e.message.startsWith("timeout")) break;  // the page may still be busy: this session is done
    }
  }
  server.close();
} finally {
  await session.close();
}
