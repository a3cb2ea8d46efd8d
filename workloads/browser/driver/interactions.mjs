// A user's interaction script, run against one tab: the steps of a declarative list (checked by the
// orchestrator, scripts/stallbench_lib/browser/page_script.py) or a module's default export, an
// async function given the same small page object:
//
//   click(selector)          a real click at the element's centre (scrolled into view first)
//   type(selector, text)     a click on the element, then the text typed key by key
//   press(key)               one key ("Enter", "Tab", "a")
//   scroll(dy)               the mouse wheel, dy pixels (negative: up)
//   waitForSelector(selector[, {timeout}])  until the element exists (default: the step timeout)
//   waitForTimeout(ms)
//   goto(path)               a URL relative to the page's (same origin: loopback only)
//
// An element that never appears is the user's bad input: BadInput, whose message names it.
//
// A click goes where the element is, which the page itself is asked. A page whose main thread is
// busy (a long task) cannot answer until it ends, but a user does not wait for it: they click what
// they see, and the browser holds that input until the main thread is free, which is the input
// delay INP measures. So when the page has not answered within a few times its usual answer time
// (answerLimit) and the element was seen in this same document, the click goes to where it was last
// seen: what a busy page shows is its last frame. A page that is only slow (a loaded machine)
// answers within that limit, and its answer, with any change its listeners made, is used. Every
// answer of the page also gives the places of the other selectors the script names (`selectors`,
// and each one used so far), so a script's first click on an element during a long task has a
// place too. A document is the same while the tab's count of begun documents (`tab.documents()`:
// navigation requests and navigations of its main frame) has not moved; anything else waits for the
// page, as before.
export class BadInput extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 50;
// An idle page answers an evaluation in a few milliseconds here, a loaded 2-core machine's in tens:
// the page is taken to be busy after ANSWER_TIMES its median answer time of late, and never sooner
// than ANSWER_MIN_MS.
const ANSWER_MIN_MS = 50;
const ANSWER_TIMES = 4;
const ANSWERS_KEPT = 20;
const BUSY = Symbol("busy");

// In the page: the centre of `target` (scrolled into view first) and of every other selector whose
// element is inside the viewport after that scroll; null when `target` is not there.
function places({ target, others }) {
  const centre = (element) => {
    const r = element.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };
  const element = document.querySelector(target);
  if (!element) return null;
  element.scrollIntoView({ block: "center", inline: "center" });
  const found = { [target]: centre(element) };
  for (const selector of others) {
    try {
      const other = document.querySelector(selector);
      const c = other && centre(other);
      if (c && c.x >= 0 && c.y >= 0 && c.x < innerWidth && c.y < innerHeight) found[selector] = c;
    } catch { /* a selector the page cannot read: its own step says so */ }
  }
  return found;
}

export function pageObject(tab, base, stepTimeoutMs, onClick, selectors = []) {
  const named = new Set(selectors);
  const seen = new Map();  // selector -> { x, y, document }
  const answered = [];     // the page's latest answer times, ms
  const answerLimit = () => {
    const sorted = [...answered].sort((a, b) => a - b);
    return Math.max(ANSWER_MIN_MS, ANSWER_TIMES * (sorted[Math.floor(sorted.length / 2)] ?? 0));
  };
  const ask = (selector) => {
    const document = tab.documents();
    const asked = performance.now();
    // During a navigation the document may be gone for a moment: that is "not there yet".
    return tab.evaluate(places, { target: selector, others: [...named].filter((s) => s !== selector) })
      .catch(() => null)
      .then((found) => {
        if (found && tab.documents() === document) {
          for (const [s, c] of Object.entries(found)) seen.set(s, { ...c, document });
          answered.push(performance.now() - asked);
          answered.splice(0, Math.max(0, answered.length - ANSWERS_KEPT));
        }
        return found?.[selector] ?? null;
      });
  };
  const find = async (selector, timeout = stepTimeoutMs) => {
    named.add(selector);
    const deadline = Date.now() + timeout;
    for (;;) {
      const centre = await ask(selector);
      if (centre) return centre;
      if (Date.now() > deadline) throw new BadInput(`the selector ${selector} never appeared (waited ${timeout} ms)`);
      await sleep(POLL_MS);
    }
  };
  // Where a user would click now: the page's answer or, while the page is busy, the element's last place.
  const target = async (selector) => {
    named.add(selector);
    const last = seen.get(selector);
    if (last && last.document === tab.documents()) {
      const answer = await Promise.race([ask(selector), sleep(answerLimit()).then(() => BUSY)]);
      if (answer === BUSY && last.document === tab.documents()) return last;
      if (answer && answer !== BUSY) return answer;
    }
    return find(selector);
  };
  const page = {
    click: async (selector) => {
      const { x, y } = await target(selector);
      onClick();
      await tab.click(x, y);
    },
    type: async (selector, text) => {
      await page.click(selector);
      await tab.type(String(text));
    },
    press: (key) => tab.press(String(key)),
    scroll: (dy) => tab.wheel(Number(dy)),
    waitForSelector: (selector, { timeout } = {}) => find(selector, timeout ?? stepTimeoutMs),
    waitForTimeout: (ms) => sleep(Number(ms)),
    goto: (path) => tab.goto(new URL(path, base).href),
  };
  return page;
}

// The selectors a declarative list names (their places are kept from the page's first answer on).
export function namedSelectors(steps) {
  return steps.flatMap((step) => [step.click, step.type, step.wait_for]).filter((s) => typeof s === "string");
}

// One declarative step: {"click": S} | {"type": S, "text": T} | {"press": K} | {"scroll": DY} |
// {"wait_for": S, "timeout_ms": N} | {"wait_ms": N} | {"goto": PATH}.
export function runStep(page, step) {
  if ("click" in step) return page.click(step.click);
  if ("type" in step) return page.type(step.type, step.text);
  if ("press" in step) return page.press(step.press);
  if ("scroll" in step) return page.scroll(step.scroll);
  if ("wait_for" in step) return page.waitForSelector(step.wait_for, { timeout: step.timeout_ms });
  if ("wait_ms" in step) return page.waitForTimeout(step.wait_ms);
  if ("goto" in step) return page.goto(step.goto);
  throw new BadInput(`unknown step ${JSON.stringify(step)}`);
}
