// Starts Debian's Chromium headless and connects playwright-core to it over the DevTools protocol.
//
// We start the browser ourselves rather than through playwright's launch(): playwright puts the
// browser in a process group of its own, so killing the cell's group (the orchestrator's timeout)
// would leave it running. Here it stays in this process's group, and `setpriv --pdeathsig KILL`
// has the kernel kill it when this process dies, even by SIGKILL. playwright-core only talks the
// protocol (connectOverCDP); it never downloads or starts a browser of its own.
//
// Nothing may leave 127.0.0.1: the DevTools endpoint binds loopback, and the switches below stop
// Chromium's own calls home (component updates, sync, field trials, crash uploads). Its crash
// handler (crashpad) detaches into a process group of its own and cannot be switched off without
// breaking navigation; it watches the browser and exits when the browser does.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { documentCounter, listeningEndpoint, removeOrphanedProfiles, withLimit } from "./common.mjs";

const SWITCHES = [
  "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-breakpad", "--disable-extensions",
  "--disable-default-apps", "--disable-field-trial-config", "--metrics-recording-only", "--no-default-browser-check",
  // A page is measured as if in the foreground: no throttled timers or deprioritised renderer.
  "--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows",
  "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
  // Off for every user, as playwright's own launch() has it unless told otherwise: as root Chromium
  // refuses its sandbox, and as a user it needs user namespaces that a chroot, most containers and
  // Ubuntu 23.10+'s AppArmor deny ("No usable sandbox!"). A run as root and one as a user then measure
  // the same browser. The pages are the suite's own, or the user's.
  "--no-sandbox",
];
const START_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 10_000;
const PROFILE_PREFIX = "stallbench-chromium-";

// { chromium: path, playwright: the playwright-core package folder } -> { version, newTab, close }
// (the tab interface of browsers.mjs: goto, evaluate, click, exposeFunction)
export async function startChromium({ chromium, playwright, proxy }) {
  const { chromium: protocol } = createRequire(import.meta.url)(playwright);
  removeOrphanedProfiles(PROFILE_PREFIX);
  const profile = mkdtempSync(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
  // Chromium keeps crash reports and caches under XDG folders: the throwaway profile, not $HOME.
  const env = { ...process.env, XDG_CONFIG_HOME: profile, XDG_CACHE_HOME: profile };
  // Loopback is never proxied (Chromium's implicit bypass); everything else goes to the refusing proxy.
  const child = spawn("setpriv", ["--pdeathsig", "KILL", "--", chromium, ...SWITCHES,
                                  `--proxy-server=http://${proxy.address}`,
                                  `--user-data-dir=${profile}`, "about:blank"],
                      { stdio: ["ignore", "ignore", "pipe"], env });
  const said = [];
  const exited = once(child, "exit");
  let browser = null;
  // Closed through the protocol, Chromium takes its helper processes down and stops writing to the
  // profile before it exits; killed, its helpers linger for a moment and may still write there.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        if (!browser) throw new Error("not connected");
        await withLimit((await browser.newBrowserCDPSession()).send("Browser.close"), CLOSE_TIMEOUT_MS, "Browser.close");
        await withLimit(exited, CLOSE_TIMEOUT_MS, "Chromium's exit");
      } catch {
        child.kill("SIGKILL");
        await exited;
      }
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  };
  try {
    const endpoint = await listeningEndpoint(child, said, "chromium", /DevTools listening on (ws:\/\/\S+)/, START_TIMEOUT_MS);
    browser = await protocol.connectOverCDP(endpoint);
    const context = browser.contexts()[0] ?? await browser.newContext();
    // port: the DevTools endpoint's, for a tool that drives this same browser (Lighthouse, in page.mjs)
    return { version: browser.version(), port: Number(new URL(endpoint).port), newTab: () => chromiumTab(context),
             close: stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

// A page of the browser. A click is a press and a release through the protocol's input events, sent
// without waiting (the browser queues them while the page is busy, as it does a user's; it stamps
// the event as it receives it); the promise is the browser's acknowledgement.
async function chromiumTab(context) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 800, height: 600 });
  const cdp = await context.newCDPSession(page);
  const press = (type, x, y) => cdp.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
  return {
    goto: (url) => page.goto(url),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    documents: documentCounter(page),
    exposeFunction: (name, fn) => page.exposeFunction(name, fn),
    addInitScript: (source) => page.addInitScript({ content: source }),
    click: (x, y) => Promise.all([press("mousePressed", x, y), press("mouseReleased", x, y)]),
    type: (text) => page.keyboard.type(text),
    press: (key) => page.keyboard.press(key),
    wheel: (dy) => page.mouse.wheel(0, dy),
  };
}
