// The browsers the drivers can start, each behind one interface: start({ executable, library }) ->
// { version, newTab, close, refused }, a tab being { goto(url), evaluate(fn, arg), exposeFunction(name,
// fn), addInitScript(source), click(x, y), type(text), press(key), wheel(dy) }. A click is sent, not awaited: the promise is the browser's acknowledgement, which
// can come only once the busy page has handled it. The drivers' common arguments:
//
//   --browser chromium|firefox --executable PATH --library DIR
//
// (the library: playwright-core for Chromium over the DevTools protocol, puppeteer-core for Firefox
// over WebDriver BiDi; both from the npm set `browser`).
import { startChromium } from "./chromium.mjs";
import { startFirefox } from "./firefox.mjs";
import { startRefusingProxy } from "./refuse.mjs";

const STARTERS = {
  chromium: ({ executable, library }, proxy) => startChromium({ chromium: executable, playwright: library, proxy }),
  firefox: ({ executable, library }, proxy) => startFirefox({ firefox: executable, puppeteer: library, proxy }),
};

export const BROWSER_OPTIONS = { browser: { type: "string" }, executable: { type: "string" }, library: { type: "string" } };

// The session also says which other hosts its pages asked for (refused(): every request that would
// have left 127.0.0.1 went to refuse.mjs's proxy instead).
export async function startBrowser({ browser, executable, library }) {
  const start = STARTERS[browser];
  if (!start) throw new Error(`unknown browser ${browser} (known: ${Object.keys(STARTERS).join(", ")})`);
  const proxy = await startRefusingProxy();
  try {
    const session = await start({ executable, library }, proxy);
    return { ...session, refused: proxy.refused, close: async () => { await session.close(); proxy.close(); } };
  } catch (e) {
    proxy.close();
    throw e;
  }
}
