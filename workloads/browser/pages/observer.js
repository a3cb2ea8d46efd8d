// What `stallbench page` observes in a user's page: installed by the driver before any of the page's
// own scripts, in every document the page navigates to, and touching nothing of the page's. A
// requestAnimationFrame loop marks the frames (rendering steps the main thread took); observers
// keep Event Timing's entries (every interaction's, from 16 ms, and the first input), the longtask
// and long-animation-frame entries where the browser has them (Chromium), and the first contentful
// paint. Times are Unix times in ms (timeOrigin + now), so documents after a navigation share a clock.
// A document being left stores what it saw in the tab's sessionStorage, which is written at once and
// outlives the document (a call to a driver binding from pagehide is lost in both browsers); the
// driver drains every document's, the one still open last, with stallbenchDrain().
(() => {
  const origin = performance.timeOrigin;
  const at = (t) => origin + t;
  const seen = { url: location.href, origin, supported: {} };
  const fresh = () => ({ ...seen, frames: [], events: [], longtasks: [], loafs: [], paints: [], measures: [] });
  let kept = fresh();
  const frame = () => {
    kept.frames.push(at(performance.now()));
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const observe = (type, keep, options = {}) => {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) return false;
    new PerformanceObserver((list) => list.getEntries().forEach(keep)).observe({ type, buffered: true, ...options });
    return true;
  };
  const event = (e) => kept.events.push({ name: e.name, id: e.interactionId ?? 0, at: at(e.startTime),
                                          start: at(e.processingStart), end: at(e.processingEnd),
                                          duration: e.duration, first: e.entryType === "first-input" });
  seen.supported.event = observe("event", event, { durationThreshold: 16 });
  observe("first-input", event);
  seen.supported.longtask = observe("longtask", (e) => kept.longtasks.push({ at: at(e.startTime), duration: e.duration }));
  const file = (url) => url.slice(url.lastIndexOf("/") + 1) || url;
  seen.supported.loaf = observe("long-animation-frame", (e) => {
    const top = [...e.scripts].sort((a, b) => b.duration - a.duration)[0];
    kept.loafs.push({ at: at(e.startTime), duration: e.duration, blocking: e.blockingDuration,
                      script: top ? { invoker: top.invoker, invoker_type: top.invokerType, file: file(top.sourceURL),
                                      function: top.sourceFunctionName, char: top.sourceCharPosition,
                                      duration: top.duration } : null });
  });
  observe("paint", (e) => kept.paints.push({ name: e.name, at: at(e.startTime) }));
  // A page that times its own tasks (performance.measure) gives the truth TBT is checked against.
  observe("measure", (e) => kept.measures.push({ name: e.name, at: at(e.startTime), duration: e.duration }));
  const LEFT = "stallbench-documents-left";
  const left = () => {
    try { return JSON.parse(sessionStorage.getItem(LEFT) ?? "[]"); } catch { return []; }
  };
  const drain = () => {
    const out = { ...kept, web_vitals_inp: window.stallbenchWebVitalsInp ?? -1 };
    kept = fresh();
    return out;
  };
  Object.defineProperty(window, "stallbenchDrain", { value: () => {
    const all = [...left(), drain()];
    try { sessionStorage.removeItem(LEFT); } catch {}
    return all;
  } });
  addEventListener("pagehide", () => {
    try { sessionStorage.setItem(LEFT, JSON.stringify([...left(), drain()])); } catch {}
  });
})();
