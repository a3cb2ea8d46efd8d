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
export class BadInput extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLL_MS = 50;

export function pageObject(tab, base, stepTimeoutMs, onClick) {
  const find = async (selector, timeout = stepTimeoutMs) => {
    const deadline = Date.now() + timeout;
    for (;;) {
      // During a navigation the document may be gone for a moment: that is "not there yet".
      const centre = await tab.evaluate((s) => {
        const element = document.querySelector(s);
        if (!element) return null;
        element.scrollIntoView({ block: "center", inline: "center" });
        const r = element.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }, selector).catch(() => null);
      if (centre) return centre;
      if (Date.now() > deadline) throw new BadInput(`the selector ${selector} never appeared (waited ${timeout} ms)`);
      await sleep(POLL_MS);
    }
  };
  const page = {
    click: async (selector) => {
      const { x, y } = await find(selector);
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
