// Prints one plain closing line, "N passed, N failed, N skipped", that tools reading CI output understand.
// A test file that could not run at all counts as one failure, so the line never reads "0 failed" on a red run.
// Before it: the time each project's files took in all (across both workers) and the slowest files,
// so a run's output says where its minutes went.
const SLOWEST = 12;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .filter((r) => r.perfStats && r.perfStats.end > 0)
      .map((r) => ({
        file: r.testFilePath.slice(process.cwd().length + 1),
        project: r.displayName?.name ?? '',
        seconds: (r.perfStats.end - r.perfStats.start) / 1000,
      }));
    if (files.length > 1) {
      const byProject = new Map();
      for (const { project, seconds } of files) {
        byProject.set(project, (byProject.get(project) ?? 0) + seconds);
      }
      const totals = [...byProject].map(([project, seconds]) => `${project || 'tests'} ${seconds.toFixed(0)} s`).join(', ');
      process.stdout.write(`\njest: time in files (both workers together): ${totals}\njest: slowest files:\n`);
      for (const { file, seconds } of files.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
        process.stdout.write(`  ${seconds.toFixed(1).padStart(6)} s  ${file}\n`);
      }
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

module.exports = SummaryReporter;
