'use strict';
// A program with its own SIGTERM handling (a graceful shutdown): the probe must leave it as it is.
process.on('SIGTERM', () => {
  console.log('shutting down');
  process.exit(7);
});
setInterval(() => {}, 1000);
