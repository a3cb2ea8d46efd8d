'use strict';
// recheck's native build from the pinned npm set when this machine has one (the recheck-linux-x64
// package: a few times faster), else its Scala.js build in this process; never its Java one, and
// nothing is fetched. Chosen before recheck is first loaded (it reads RECHECK_BACKEND then).
function chooseBackend() {
  let native = true;
  try {
    require.resolve(`recheck-${process.platform}-${process.arch}/package.json`);
  } catch (e) {
    native = false;
  }
  process.env.RECHECK_BACKEND = native ? 'native' : 'pure';
  return native ? 'native' : 'Scala.js';
}

module.exports = { chooseBackend };
