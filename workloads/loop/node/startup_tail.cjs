// How long Node takes from a main module's first timer to the loop's first timers check: the
// rest of its bootstrap after the module (performance.nodeTiming.loopStart is marked just before
// uv_run). A setTimeout(0) armed by the main module has run by then only if libuv's millisecond
// clock ticked meanwhile, so this decides how often it beats a setImmediate. `stallbench trace
// --node` measures it on each line compared and has the model spend as long (Runtime's
// set_startup_tail).
"use strict";
setTimeout(() => {}, 0);
const armed = performance.now();  // the timer's start was read at the end of setTimeout
setImmediate(() => {
  process.stdout.write(JSON.stringify({ tail_ms: performance.nodeTiming.loopStart - armed }) + "\n");
});
