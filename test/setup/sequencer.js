// Jest orders the files it has no timings for (all of them in a fresh clone: timings are kept per
// checkout path) by size, largest first. That could run a small file that waits on real timers, or the
// embedded-database template spec, last, with the other worker idle behind it. Here, files without
// timings run end-to-end first (each boots the panel), then unit files, which fill the gaps at the end;
// files with timings keep Jest's order (slowest first). Two unit files are as slow as the slowest
// end-to-end ones and run first of all: the embedded-database template spec (initdb twice, in
// WebAssembly: about 30 s) and the route declarations (the whole app's controllers: about 16 s). Among
// the unit files, by size, they came near the end, where one ran alone beside an idle worker.
const Sequencer = require('@jest/test-sequencer').default;

const isEndToEnd = (test) => /\.(e2e|int)-spec\.ts$/.test(test.path);
const SLOW_UNITS = ['src/database/pglite-template.spec.ts', 'src/common/auth/routes.spec.ts'];
const isSlowUnit = (test) => SLOW_UNITS.some((file) => test.path.endsWith(`/${file}`));

class EndToEndFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const timed = sorted.filter((test) => test.duration != null);
    const untimed = sorted.filter((test) => test.duration == null);
    const rest = untimed.filter((test) => !isSlowUnit(test));
    return [...untimed.filter(isSlowUnit), ...rest.filter(isEndToEnd), ...rest.filter((test) => !isEndToEnd(test)), ...timed];
  }
}

module.exports = EndToEndFirstSequencer;
