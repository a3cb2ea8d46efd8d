// One measured window: a requestAnimationFrame loop turns a square (something to paint every
// frame), the driver clicks the button at a fixed rate through the protocol's input events, and
// after a lead-in the long task runs with one strategy; then a tail, and everything observed is
// returned. Times are the page's performance.now(), in ms.
//
// A frame is a requestAnimationFrame callback, at the time it ran: a rendering step the main thread
// took, which is what a long task takes away (seed 003). Not the callback's timestamp argument:
// that is when the frame was due (its vsync), which can fall inside the long task that delayed it.
// Not the protocol's frame timing either: it needs tracing, which costs CPU on a 2-core machine
// while the page is being measured.
import { makeJob } from "./work.js";

const seen = { frames: [], clicks: [], events: [], longtasks: [], loafs: [] };
const chunks = [];  // how long each chunk of the work held the main thread
let recording = false;

const spinner = document.getElementById("spinner");
const target = document.getElementById("target");
requestAnimationFrame(function frame(t) {
  if (recording) seen.frames.push(performance.now());
  spinner.style.transform = `rotate(${(t / 4) % 360}deg)`;
  requestAnimationFrame(frame);
});

// Every click, from page load on: the driver checks that each one it sent was handled.
target.addEventListener("click", (event) => {
  const start = performance.now();
  target.textContent = `clicks: ${seen.clicks.length + 1}`;
  seen.clicks.push({ at: event.timeStamp, start, end: performance.now() });
});

function observe(type, keep, options = {}) {
  new PerformanceObserver((list) => list.getEntries().forEach(keep)).observe({ type, buffered: true, ...options });
}
// Event Timing reports an event only when its duration (input to next paint) is at least 16 ms.
observe("event", (e) => e.name === "click" &&
        seen.events.push({ at: e.startTime, start: e.processingStart, end: e.processingEnd, duration: e.duration }),
        { durationThreshold: 16 });
// Entry types this browser reports (Firefox has neither longtask nor long-animation-frame): a type
// it lacks is "not available", never zero.
const SUPPORTED = PerformanceObserver.supportedEntryTypes;
seen.supported = { longtask: SUPPORTED.includes("longtask"), loaf: SUPPORTED.includes("long-animation-frame") };
if (seen.supported.longtask) observe("longtask", (e) => seen.longtasks.push({ at: e.startTime, duration: e.duration }));
// A long animation frame with what makes it useful: the part that delayed input (blockingDuration),
// when its rendering and its style and layout started, and its longest script (by duration): who
// invoked it and where its source is, which tells which function to chunk.
const fileOf = (url) => url.slice(url.lastIndexOf("/") + 1);
if (seen.supported.loaf) observe("long-animation-frame", (e) => {
  const top = [...e.scripts].sort((a, b) => b.duration - a.duration)[0];
  seen.loafs.push({ at: e.startTime, duration: e.duration, blocking: e.blockingDuration, render_start: e.renderStart,
                    style_layout_start: e.styleAndLayoutStart,
                    script: top ? { invoker: top.invoker, invoker_type: top.invokerType, file: fileOf(top.sourceURL),
                                    function: top.sourceFunctionName, char: top.sourceCharPosition,
                                    duration: top.duration, forced_layout: top.forcedStyleAndLayoutDuration } : null });
});

// What lets the browser in between two chunks: each returns a promise that resolves in a new task.
const channel = new MessageChannel();
const PAUSES = {
  "timeout": () => new Promise((resolve) => setTimeout(resolve, 0)),
  "message-channel": () => new Promise((resolve) => {
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  }),
  "yield": () => scheduler.yield(),
  "post-task": () => scheduler.postTask(() => {}, { priority: "user-visible" }),
};

function timedStep(job) {
  const start = performance.now();
  const done = job.step();
  chunks.push(performance.now() - start);
  return done;
}

async function chunked(job, pause) {
  while (!timedStep(job)) await pause();
}

// requestIdleCallback as it is meant to be used: as many chunks as fit in each idle period.
async function idleChunks(job) {
  let done = timedStep(job);
  while (!done) {
    const deadline = await new Promise((resolve) => requestIdleCallback(resolve));
    do done = timedStep(job); while (!done && deadline.timeRemaining() > 0);
  }
}

// The worker's job in phases, on this page's clock: the postMessage call here (the payload's
// transfer), when the worker's onmessage began (after the module's load and the message's way
// in), when it posted the answer, and when the answer's onmessage began here. The worker stamps
// Unix times (its own timeOrigin + now()), put on this page's clock here.
let workerTimes = null;

function onWorker(work, input) {
  const worker = new Worker("worker.js", { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      const answered = performance.now();
      worker.terminate();
      workerTimes = { ...workerTimes, answered, received: data.received - performance.timeOrigin,
                      replied: data.replied - performance.timeOrigin };
      resolve(data.answer);
    };
    worker.onerror = (e) => { worker.terminate(); reject(new Error(`worker: ${e.message}`)); };
    const postStart = performance.now();
    worker.postMessage({ work, input }, input instanceof Uint8Array ? [input.buffer] : []);
    workerTimes = { post_start: postStart, post_end: performance.now() };
  });
}

async function perform(work, input, strategy, chunk) {
  if (strategy === "worker") return onWorker(work, input);
  const job = makeJob(work, input, strategy === "inline" ? 0 : chunk);
  if (strategy === "inline") timedStep(job);
  else if (strategy === "idle-callback") await idleChunks(job);
  else if (PAUSES[strategy]) await chunked(job, PAUSES[strategy]);
  else throw new Error(`unknown strategy ${strategy}`);
  return job.answer();
}

// The API a strategy needs, when this browser lacks it (a Firefox before 142 has no scheduler):
// the cell is rejected with this reason rather than run some other way.
const NEEDS = { "idle-callback": ["requestIdleCallback", () => typeof requestIdleCallback === "function"],
                "yield": ["scheduler.yield", () => typeof globalThis.scheduler?.yield === "function"],
                "post-task": ["scheduler.postTask", () => typeof globalThis.scheduler?.postTask === "function"],
                "worker": ["module Web Workers", () => typeof Worker === "function"] };
window.missingApi = (strategy) => {
  const [api, present] = NEEDS[strategy] ?? ["", () => true];
  return present() ? "" : `${api} is not available in this browser (${navigator.userAgent})`;
};

// The callback is this file's own function, so a long animation frame names it (and this file) as
// the script that ran the work: setTimeout(resolve) would be a native function with no source.
const sleep = (ms) => new Promise((resolve) => setTimeout(() => resolve(), ms));
let input = null;

// Before the window: the parse's payload is fetched (its bytes are what every strategy starts from).
// Returns the page clock's origin (a Unix time in ms), to put the driver's send times on it.
window.prepare = async (work, size) => {
  input = work === "report" ? size : new Uint8Array(await (await fetch("/payload")).arrayBuffer());
  return performance.timeOrigin;
};

window.measure = async ({ work, strategy, chunk, leadMs, tailMs }) => {
  recording = true;
  const windowStart = performance.now();
  await sleep(leadMs);  // the work starts in a timer task, where a long task is attributed
  const workStart = performance.now();
  const answer = await perform(work, input, strategy, chunk);
  const workEnd = performance.now();
  await sleep(tailMs);
  recording = false;
  return { window_start: windowStart, work_start: workStart, work_end: workEnd, window_end: performance.now(), answer,
           chunks, ...(workerTimes ? { worker: workerTimes } : {}) };
};

// After the driver's last click was acknowledged. An acknowledgement says the browser took the click,
// not that the page has run its handler: Firefox's (WebDriver BiDi) can come while the event still
// waits in the page's queue behind this call. So wait, a bounded time, until `sent` clicks were
// handled; the driver's check then names a click that was really lost.
window.collect = async (sent) => {
  const until = performance.now() + 5000;
  while (seen.clicks.length < sent && performance.now() < until) await sleep(10);
  return seen;
};
