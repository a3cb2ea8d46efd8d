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

import { listeningEndpoint, removeOrphanedProfiles, withLimit } from "./common.mjs";

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
export async function startFirefox({ firefox, puppeteer }) {
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
    await createProfile(Browser.FIREFOX, { path: profile, preferences: { ...PREFERENCES, ...extraPreferences() } });
    const env = { ...process.env, MOZ_CRASHREPORTER_DISABLE: "1", XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile };
    child = spawn("setpriv", ["--pdeathsig", "KILL", "--", firefox, "--headless", "--no-remote", "--profile", profile,
                              "--remote-debugging-port=0", "--remote-allow-hosts=127.0.0.1", "about:blank"],
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

// A page of the browser. A click goes through BiDi's input actions (a press and a release); Firefox
// creates the event in the page's process when it dispatches it, so while the page is busy the
// click waits in the queue with no timestamp yet: the driver's send time is the input's time here.
async function firefoxTab(browser) {
  const page = (await browser.pages())[0] ?? await browser.newPage();
  await page.setViewport({ width: 800, height: 600 });
  return {
    goto: (url) => page.goto(url),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    exposeFunction: (name, fn) => page.exposeFunction(name, fn),
    click: (x, y) => page.mouse.click(x, y),
  };
}
