// What every held-out program shares: `log` collects the labels, printed as one JSON array when the
// process exits (as the JavaScript stallbench writes from a scenario prints them), and `busy` works
// synchronously for `ms` milliseconds.
"use strict";
const order = [];
const print = () => process.stdout.write(JSON.stringify(order) + "\n");
process.on("exit", print);

module.exports = {
  log: (label) => order.push(label),
  busy: (ms) => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  },
  // A program's own 'exit' listeners log too: the order is printed after them.
  printAfterExitListeners: () => {
    process.off("exit", print);
    process.on("exit", print);
  },
};
