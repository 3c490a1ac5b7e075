// `npm test`: every check the project has, arranged to end soonest on two cores.
//
//   1. build (server and web UI, each only when its sources changed: scripts/build.mjs)
//   2. two lanes side by side, until both end:
//      - Jest (unit and end-to-end): the longest step by far (more than half the CPU time of the whole
//        run; its two workers alone keep the cores about 1.6 busy), so it starts first and alone in its lane;
//      - the browser tests (Playwright), then the web UI's unit tests (Vitest), the typecheck, dead code
//        (knip), the lint and the web UI's size, one after another. The browser tests mostly wait (on the
//        panel, the simulator's timings and Chromium: about 0.65 of a core), so Jest keeps the rest.
//        Until 28 November the static checks ran in a third lane beside both: some 3.5 cores of work on
//        two, where every step ran three to ten times slower than alone and the run took 1,120 s.
//
// A step prints its output when it ends, so lanes never interleave their lines. A failing step fails the
// run, but every step still runs and reports; the run ends with the time of each step.
// Any step can be run alone: see the `test:*`, `typecheck`, `lint` scripts in package.json.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const timings = [];

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);

/** Runs `npm run -s <script>`; `buffered` keeps its output until it ends. Resolves to its exit code. */
const step = (script, { buffered = false } = {}) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(npm, ['run', '-s', script], { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (buffered) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      const took = seconds(started);
      timings.push({ script, took, status, tail: status !== 0 && buffered ? lastLines(Buffer.concat(output).toString(), 60) : undefined });
      if (buffered) {
        process.stdout.write(`\n── npm run ${script} (${took} s${status === 0 ? '' : `, exit ${status}`}) ──\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve(status);
    });
  });

/** Runs the scripts one after another, every one even after a failure (each reports); resolves to the first failure's code. */
const lane = async (scripts) => {
  let failed = 0;
  for (const script of scripts) {
    const status = await step(script, { buffered: true });
    failed ||= status;
  }
  return failed;
};

/** The last `count` lines of `text`. */
const lastLines = (text, count) => text.trimEnd().split('\n').slice(-count).join('\n');

const summary = () => {
  // A failed step's end again, last: where a CI log is cut to its tail, the failure still shows.
  for (const { script, tail } of timings) {
    if (tail) {
      process.stdout.write(`\n── npm run ${script} failed; its last lines again ──\n${tail}\n`);
    }
  }
  process.stdout.write('\nnpm test, time per step:\n');
  for (const { script, took, status } of timings) {
    process.stdout.write(`  ${script.padEnd(14)} ${took.padStart(7)} s${status === 0 ? '' : `  (exit ${status})`}\n`);
  }
};

const lanes = [['test:jest'], ['test:browser', 'test:web', 'typecheck', 'lint:dead', 'lint', 'test:size']];

const stages = [() => step('build'), async () => (await Promise.all(lanes.map(lane))).find((s) => s !== 0) ?? 0];

const started = performance.now();
for (const stage of stages) {
  const status = await stage();
  if (status !== 0) {
    summary();
    process.stdout.write(`npm test failed after ${seconds(started)} s\n`);
    process.exit(status);
  }
}
summary();
process.stdout.write(`npm test passed in ${seconds(started)} s\n`);
