// Jest orders the files it has no timings for (all of them in a fresh clone: timings are kept per
// checkout path) by size, largest first. That could run a small file that waits on real timers, or the
// embedded-database template spec, last, with the other worker idle behind it. Here, files without
// timings run end-to-end first (each boots the panel), then unit files, which fill the gaps at the end;
// files with timings keep Jest's order (slowest first).
const Sequencer = require('@jest/test-sequencer').default;

const isEndToEnd = (test) => /\.(e2e|int)-spec\.ts$/.test(test.path);

class EndToEndFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const timed = sorted.filter((test) => test.duration != null);
    const untimed = sorted.filter((test) => test.duration == null);
    return [...untimed.filter(isEndToEnd), ...untimed.filter((test) => !isEndToEnd(test)), ...timed];
  }
}

module.exports = EndToEndFirstSequencer;
