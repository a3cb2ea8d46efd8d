'use strict';
// What the doctor's reference services share: their npm packages (express, bcryptjs), pinned in
// scripts/packages/npm/services and installed with `scripts/bootstrap --npm services` into the
// dependency folder ($STALLBENCH_DEPS, else .deps/), and listening on 127.0.0.1 alone, on the port
// given as the first argument.
const path = require('path');

const deps = process.env.STALLBENCH_DEPS || path.join(__dirname, '..', '..', '..', '.deps');
const modules = path.join(deps, 'npm', 'services', 'node_modules');

function need(name) {
  try {
    return require(path.join(modules, name));
  } catch (error) {
    process.stderr.write(`${name} is not installed in ${modules}: run scripts/bootstrap --npm services\n`);
    return process.exit(2);
  }
}

function listen(app) {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write('give the port to listen on (127.0.0.1 only) as the first argument\n');
    process.exit(2);
  }
  app.get('/health', (req, res) => res.send('ok'));
  return app.listen(port, '127.0.0.1');
}

module.exports = { need, listen };
