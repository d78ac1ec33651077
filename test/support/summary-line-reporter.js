'use strict';
// CI reads the last line of the test run as "N passed, N failed"; Jest's own summary is not in
// that form, so this reporter prints it once every test file has finished.
class SummaryLineReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : '');
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryLineReporter;
