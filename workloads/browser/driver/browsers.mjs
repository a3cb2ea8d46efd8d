// The browsers the drivers can start, each behind one interface: start({ executable, library }) ->
// { version, newTab, close }, a tab being { goto(url), evaluate(fn, arg), exposeFunction(name, fn),
// click(x, y) }. A click is sent, not awaited: the promise is the browser's acknowledgement, which
// can come only once the busy page has handled it. The drivers' common arguments:
//
//   --browser chromium|firefox --executable PATH --library DIR
//
// (the library: playwright-core for Chromium over the DevTools protocol, puppeteer-core for Firefox
// over WebDriver BiDi; both from the npm set `browser`).
import { startChromium } from "./chromium.mjs";
import { startFirefox } from "./firefox.mjs";

const STARTERS = {
  chromium: ({ executable, library }) => startChromium({ chromium: executable, playwright: library }),
  firefox: ({ executable, library }) => startFirefox({ firefox: executable, puppeteer: library }),
};

export const BROWSER_OPTIONS = { browser: { type: "string" }, executable: { type: "string" }, library: { type: "string" } };

export function startBrowser({ browser, executable, library }) {
  const start = STARTERS[browser];
  if (!start) throw new Error(`unknown browser ${browser} (known: ${Object.keys(STARTERS).join(", ")})`);
  return start({ executable, library });
}
