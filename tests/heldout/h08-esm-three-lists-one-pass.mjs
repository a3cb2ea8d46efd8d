// Self-contained, unlike the CommonJS programs: an ES module entry that imports a CommonJS file
// (order.cjs) has its body run elsewhere on Node 18 (timers first), and a scenario has no imports.
const order = [];
const log = (label) => order.push(label);
process.on("exit", () => process.stdout.write(JSON.stringify(order) + "\n"));
const busy = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

for (const ms of [1, 2, 3]) {
  setTimeout(() => {
    log(`t${ms}`);
    Promise.resolve().then(() => log(`p${ms}`));
  }, ms);
}
setImmediate(() => log("immediate"));
busy(5);
