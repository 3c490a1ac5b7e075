// Prints one plain closing line, "N passed, N failed, N skipped", that tools reading CI output understand.
// A test file that could not run at all counts as one failure, so the line never reads "0 failed" on a red run.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

module.exports = SummaryReporter;
