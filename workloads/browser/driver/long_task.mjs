// The browser family's driver, one per bench process: starts Chromium and the pages' server once,
// then answers one request per line on stdin with one JSON line on stdout, until stdin closes.
//
//   node long_task.mjs --chromium PATH --playwright DIR --pages DIR
//
// First line out: {"ready": true, "chromium": VERSION}. A request:
//   {"work": "report"|"parse", "size": N, "payload": FILE (the parse's), "strategy": S, "chunk": N,
//    "click_ms": N, "lead_ms": N, "tail_ms": N, "limit_ms": N}
// A response: what the page measured (long_task.js) plus clicks_sent, or {"error": "..."}. Each
// run reloads the page, so nothing of one repetition (heap, observers) reaches the next.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

import { startChromium, withLimit } from "./chromium.mjs";
import { servePages } from "./server.mjs";

const { values: args } = parseArgs({ options: { chromium: { type: "string" }, playwright: { type: "string" },
                                                pages: { type: "string" } } });
const PAGE_FILES = ["long_task.html", "long_task.js", "work.js", "worker.js"];
const ACK_TIMEOUT_MS = 30_000;

// Clicks at a fixed rate in the middle of the button, each a press and a release sent without
// waiting: the browser queues them while the page's main thread is busy, as it does a user's.
function startClicking(cdp, everyMs) {
  const acks = [];
  const click = (type) => cdp.send("Input.dispatchMouseEvent", { type, x: 400, y: 300, button: "left", clickCount: 1 });
  const timer = setInterval(() => acks.push(click("mousePressed"), click("mouseReleased")), everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await withLimit(Promise.all(acks), ACK_TIMEOUT_MS, "the browser's acknowledgement of the clicks");
      return acks.length / 2;
    },
  };
}

async function measure(page, cdp, server, request) {
  server.setPayload(request.payload || null);
  await page.goto(`${server.origin}/long_task.html`);
  await page.evaluate(([work, size]) => window.prepare(work, size), [request.work, request.size]);
  const clicking = startClicking(cdp, request.click_ms);
  let result;
  try {
    result = await page.evaluate((r) => window.measure({ work: r.work, strategy: r.strategy, chunk: r.chunk,
                                                         leadMs: r.lead_ms, tailMs: r.tail_ms }), request);
  } finally {
    result = { ...result, clicks_sent: await clicking.stop() };
  }
  return { ...result, ...await page.evaluate(() => window.collect()) };
}

const session = await startChromium({ chromium: args.chromium, playwright: args.playwright });
try {
  const server = await servePages(args.pages, PAGE_FILES);
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 800, height: 600 });
  const cdp = await session.context.newCDPSession(page);
  console.log(JSON.stringify({ ready: true, chromium: session.version }));
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    try {
      console.log(JSON.stringify(await withLimit(measure(page, cdp, server, request), request.limit_ms,
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
