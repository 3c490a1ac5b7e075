import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const SLOWEST = 12;

/**
 * Ends the run with one line the README's test command can be read by: `web: N passed, N failed, N skipped`.
 * Before it: the time each spec file took in all (both workers together, retries included), the slowest
 * tests, and each test that failed for good.
 */
export default class SummaryReporter implements Reporter {
  /** The last outcome of each test (a retry's), by test id. */
  private readonly outcomes = new Map<string, { status: TestResult['status']; name: string }>();
  private readonly durations: { title: string; file: string; ms: number }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = test.location.file.replace(/^.*\/e2e\//, '');
    this.outcomes.set(test.id, { status: result.status, name: `${file}:${test.location.line}: ${test.title}` });
    this.durations.push({ title: test.title, file, ms: result.duration });
  }

  onEnd(): void {
    if (this.durations.length > 1) {
      const byFile = new Map<string, number>();
      for (const { file, ms } of this.durations) {
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
      }
      process.stdout.write('\nweb: time per spec file (both workers together):\n');
      for (const [file, ms] of [...byFile].sort((a, b) => b[1] - a[1])) {
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
      }
      process.stdout.write('web: slowest tests:\n');
      for (const { title, file, ms } of [...this.durations].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) {
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}: ${title}\n`);
      }
    }
    // What failed for good is named just above the count.
    for (const { status, name } of this.outcomes.values()) {
      if (status !== 'passed' && status !== 'skipped') {
        process.stdout.write(`web: ${status}: ${name}\n`);
      }
    }
    const count = (...statuses: TestResult['status'][]) => [...this.outcomes.values()].filter(({ status }) => statuses.includes(status)).length;
    process.stdout.write(`web: ${count('passed')} passed, ${count('failed', 'timedOut', 'interrupted')} failed, ${count('skipped')} skipped\n`);
  }
}
