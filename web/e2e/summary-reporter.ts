import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Ends the run with one line the README's test command can be read by: `web: N passed, N failed, N skipped`. */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, TestResult['status']>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.outcomes.set(test.id, result.status);
  }

  onEnd(): void {
    const count = (...statuses: TestResult['status'][]) => [...this.outcomes.values()].filter((s) => statuses.includes(s)).length;
    process.stdout.write(`web: ${count('passed')} passed, ${count('failed', 'timedOut', 'interrupted')} failed, ${count('skipped')} skipped\n`);
  }
}
