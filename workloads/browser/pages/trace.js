// Runs one page scenario (workloads/browser/scenarios/, checked by the orchestrator before it gets
// here) and returns the labels in the order they were logged. Each op schedules its callback with
// the real API; the callback logs its label, then runs its `then` ops. The run is over when every
// callback scheduled has run: each op counts itself pending until then.
//
// The program's body runs in a task of its own, a MessageChannel message: like a page's <script>,
// it holds the stack until it returns, its microtasks run when it does, and its timers start at
// nesting level 1 (HTML clamps a timer nested more than 5 deep to 4 ms). Not a timer callback:
// that would start every timer one level deeper than a page's script does, and clamp one level early.
const target = document.getElementById("target");
let order, pending, finished;

function settle() {
  if (--pending === 0) finished();
}

// `callback` runs the op's label and children; `schedule(callback)` hands it to the browser.
function later(op, schedule) {
  pending++;
  schedule(() => {
    run(op);
    settle();
  });
}

function run(op) {
  if (op.log !== undefined) order.push(op.log);
  for (const child of op.then ?? []) start(child);
}

function busy(ms) {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* a long task */ }
}

const OPS = {
  log: (op) => order.push(op.text),
  busy: (op) => {
    busy(op.ms);
    if (op.log !== undefined) order.push(op.log);
  },
  setTimeout: (op) => later(op, (cb) => setTimeout(cb, op.ms)),
  setInterval: (op) => {
    pending += op.count;
    let ticks = 0;
    const id = setInterval(() => {
      if (++ticks === op.count) clearInterval(id);
      run(op);
      settle();
    }, op.ms);
  },
  promise: (op) => later(op, (cb) => Promise.resolve().then(cb)),
  queueMicrotask: (op) => later(op, (cb) => queueMicrotask(cb)),
  // The continuation of an async function after `await null`.
  await: (op) => later(op, (cb) => (async () => { await null; cb(); })()),
  requestAnimationFrame: (op) => later(op, (cb) => requestAnimationFrame(() => cb())),
  postMessage: (op) => later(op, (cb) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); cb(); };
    channel.port2.postMessage(null);
  }),
  requestIdleCallback: (op) => later(op, (cb) => requestIdleCallback(() => cb(), op.timeout ? { timeout: op.timeout } : {})),
  postTask: (op) => later(op, (cb) => scheduler.postTask(cb, { priority: op.priority ?? "user-visible", delay: op.delay ?? 0 })),
  // The continuation of an async function after `await scheduler.yield()`.
  yield: (op) => later(op, (cb) => (async () => { await scheduler.yield(); cb(); })()),
  // A click listener on the page's button: its label and children run on every click.
  listen: (op) => target.addEventListener("click", () => run(op)),
  // button.click() runs the listeners at once, inside this callback; a user's click (sent by the
  // driver through the protocol's input events) is a task of its own, later.
  click: (op) => {
    if (op.how === "script") return target.click();
    pending++;
    window.stallbenchUserClick().catch((e) => order.push(`click failed: ${e.message}`));
  },
};

function start(op) {
  OPS[op.op](op);
}

// After the button's own listeners: a user's click has been dispatched.
window.addEventListener("click", (event) => { if (event.isTrusted) settle(); });

window.runScenario = (program) => new Promise((resolve) => {
  order = [];
  pending = 1;
  finished = () => resolve(order);
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    program.forEach(start);
    settle();
  };
  channel.port2.postMessage(null);
});
