// Starts Debian's Firefox ESR headless and connects puppeteer-core to it over WebDriver BiDi.
//
// As for Chromium (chromium.mjs), we start the browser ourselves rather than through puppeteer's
// launch(), which spawns it detached, in a process group of its own: here Firefox and its content
// processes stay in this process's group, which the orchestrator kills on a timeout, and
// `setpriv --pdeathsig KILL` has the kernel kill the parent process when this driver dies (its
// content processes exit when their parent's IPC channel closes). puppeteer-core only speaks the
// protocol; it never downloads a browser (the npm set is installed with --ignore-scripts).
//
// Nothing may leave 127.0.0.1: the BiDi endpoint binds loopback, and the profile is puppeteer's
// test profile (@puppeteer/browsers' createProfile: updates, telemetry, safe browsing, captive
// portal and remote settings pointed at nothing), plus full timer precision, so the page's
// performance.now() is not rounded to a millisecond. STALLBENCH_FIREFOX_PREFS (a JSON object)
// adds preferences: {"dom.enable_web_task_scheduling": false} runs the page as a Firefox without
// scheduler.postTask and scheduler.yield (before 142) would.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { documentCounter, listeningEndpoint, removeOrphanedProfiles, withLimit } from "./common.mjs";

const START_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 10_000;
const PROFILE_PREFIX = "stallbench-firefox-";
const PREFERENCES = {
  "privacy.reduceTimerPrecision": false,
  "privacy.resistFingerprinting.reduceTimerPrecision.jitter": false,
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "browser.newtabpage.enabled": false,
  "datareporting.policy.dataSubmissionEnabled": false,
  "toolkit.telemetry.enabled": false,
};

// Every request but loopback's to the refusing proxy (refuse.mjs): a page sends nothing further.
function proxied(proxy) {
  return { "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": proxy.port,
           "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": proxy.port,
           "network.proxy.allow_hijacking_localhost": false, "network.proxy.no_proxies_on": "" };
}

function extraPreferences() {
  const given = process.env.STALLBENCH_FIREFOX_PREFS;
  if (!given) return {};
  const prefs = JSON.parse(given);
  if (typeof prefs !== "object" || prefs === null || Array.isArray(prefs))
    throw new Error("STALLBENCH_FIREFOX_PREFS must be a JSON object of preferences");
  return prefs;
}

// { firefox: path, puppeteer: the puppeteer-core package folder } -> { version, newTab, close }
// (the tab interface of browsers.mjs)
export async function startFirefox({ firefox, puppeteer, proxy }) {
  const require = createRequire(join(puppeteer, "package.json"));
  const protocol = require(puppeteer);
  const { createProfile, Browser } = await import(pathToFileURL(require.resolve("@puppeteer/browsers")));
  removeOrphanedProfiles(PROFILE_PREFIX);
  const profile = mkdtempSync(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
  let child = null, exited = null, browser = null;
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      try {
        if (!browser) throw new Error("not connected");
        await withLimit(browser.close(), CLOSE_TIMEOUT_MS, "closing Firefox");
        await withLimit(exited, CLOSE_TIMEOUT_MS, "Firefox's exit");
      } catch {
        child.kill("SIGKILL");
        await exited;
      }
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  };
  try {
    await createProfile(Browser.FIREFOX, { path: profile,
                                           preferences: { ...PREFERENCES, ...proxied(proxy), ...extraPreferences() } });
    const env = { ...process.env, MOZ_CRASHREPORTER_DISABLE: "1", XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile };
    child = spawn("setpriv", ["--pdeathsig", "KILL", "--", firefox, "--headless", "--no-remote", "--profile", profile,
                              "--remote-debugging-port=0", "--remote-allow-hosts=127.0.0.1",
                              "--remote-allow-system-access", "about:blank"],
                  { stdio: ["ignore", "ignore", "pipe"], env });
    exited = once(child, "exit");
    const said = [];
    const endpoint = await listeningEndpoint(child, said, "firefox", /WebDriver BiDi listening on (ws:\/\/\S+)/,
                                             START_TIMEOUT_MS);
    browser = await protocol.connect({ browserWSEndpoint: `${endpoint}/session`, protocol: "webDriverBiDi" });
    // "firefox/153.8.0esr" or "153.8.0esr", as the protocol says it
    const version = (await browser.version()).replace(/^[^0-9]*/, "");
    return { version, newTab: () => firefoxTab(browser), close: stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// A click as real input. BiDi's input actions are no good for timing: Firefox synthesizes their
// events in the page's own process, when its main thread is free, so a click sent during a long
// task gets its timestamp after the task (hiding the delay), and the actions of one session run one
// after another, each waiting a frame, so clicks sent every 50 ms fall behind. Instead the click is
// synthesized in the parent process's browser window (script.evaluate in its chrome context, which
// --remote-allow-system-access opens), at once: the parent stamps it, and it reaches the page's
// process as real input does, waiting there for the page. Its event's timestamp is then the input's
// time, as Chromium's is; the promise resolves once the parent has sent it.
const CLICK_IN_CONTENT = `(x, y) => {
  const area = gBrowser.selectedBrowser.getBoundingClientRect();
  for (const [type, buttons] of [["mousedown", 1], ["mouseup", 0]])
    window.synthesizeMouseEvent(type, area.left + x, area.top + y, { button: 0, buttons, clickCount: 1 },
                                { isDOMEventSynthesized: false });
}`;

async function chromeContext(connection) {
  const { result } = await connection.send("browsingContext.getTree", { "moz:scope": "chrome" });
  return result.contexts[0].context;
}

async function firefoxTab(browser) {
  const page = (await browser.pages())[0] ?? await browser.newPage();
  await page.setViewport({ width: 800, height: 600 });
  const connection = browser.connection;
  const chrome = await chromeContext(connection);
  const click = async (x, y) => {
    const { result } = await connection.send("script.callFunction", {
      functionDeclaration: CLICK_IN_CONTENT, target: { context: chrome }, awaitPromise: false,
      arguments: [{ type: "number", value: x }, { type: "number", value: y }] });
    if (result.type === "exception") throw new Error(`click at ${x},${y}: ${result.exceptionDetails.text}`);
  };
  return {
    goto: (url) => page.goto(url),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    documents: documentCounter(page),
    exposeFunction: (name, fn) => page.exposeFunction(name, fn),
    addInitScript: (source) => page.evaluateOnNewDocument(source),
    click,
    // Keys and the wheel go through BiDi's input actions: their events are stamped in the page's
    // process as it dispatches them (an input delay there reads short; clicks are the measure).
    type: (text) => page.keyboard.type(text),
    press: (key) => page.keyboard.press(key),
    wheel: (dy) => page.mouse.wheel({ deltaY: dy }),
  };
}
