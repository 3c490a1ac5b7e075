// `npm test`: every check the project has, arranged for two cores.
//
//   1. build (server and web UI, each only when its sources changed: scripts/build.mjs)
//   2. two lanes side by side, until both end:
//      - Jest (unit and end-to-end), the longest step;
//      - the web UI's unit tests (Vitest), the typecheck, dead code (knip), the lint and the web UI's
//        size, one after another (about 150 s alone);
//   3. the browser tests (Playwright), alone.
// Jest and the browser tests each keep both cores busy alone (Chromium's renderers, the panel and
// Playwright's workers for the one; Jest's workers and PostgreSQL for the other). Side by side (until
// 29 November) neither ended sooner than the two one after the other, and the browser tests ran two to
// three times slower than alone (stop 43's CI failed in them). Alone they
// take what they were measured at; Jest, which took a 2.8-fold slowdown without a failure, shares.
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

const lanes = [['test:jest'], ['test:web', 'typecheck', 'lint:dead', 'lint', 'test:size']];

const started = performance.now();
const finish = (status) => {
  summary();
  process.stdout.write(status === 0 ? `npm test passed in ${seconds(started)} s\n` : `npm test failed after ${seconds(started)} s\n`);
  process.exit(status);
};

// Nothing runs without a build; after it every stage runs, so that one run reports every failure.
const built = await step('build');
if (built !== 0) {
  finish(built);
}
const checked = (await Promise.all(lanes.map(lane))).find((s) => s !== 0) ?? 0;
const browsed = await lane(['test:browser']);
finish(checked || browsed);
