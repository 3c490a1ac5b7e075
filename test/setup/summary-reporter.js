// Prints one plain closing line, "N passed, N failed, N skipped", that tools reading CI output understand.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`);
  }
}

module.exports = SummaryReporter;
