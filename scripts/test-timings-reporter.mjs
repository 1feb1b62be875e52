// A node:test reporter (used beside `spec` by scripts/run-tests.mjs) that writes one JSON document: each test
// file's wall time (node reports every file as a test named by its path, from spawn to exit) and the counts of
// the tests that ran, passed, failed and were skipped. run-tests.mjs prints the slowest files from it.
export default async function* timings(source) {
  const files = new Map();
  const counts = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    const { name, file, details, skip, todo } = event.data ?? {};
    if (file && name === file) {
      // Node 20 ends a file with test:complete only; a file that fails to load also reports test:fail.
      if (event.type === 'test:complete' || event.type === 'test:fail') {
        const failed = event.type === 'test:fail' || details?.passed === false || files.get(file)?.failed;
        files.set(file, { file, ms: Math.round(details?.duration_ms ?? 0), failed: Boolean(failed) });
      }
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (details.type === 'suite') continue;
    counts.tests += 1;
    if (skip || todo) counts.skipped += 1;
    else if (event.type === 'test:pass') counts.passed += 1;
    else counts.failed += 1;
  }
  yield `${JSON.stringify({ ...counts, files: [...files.values()] }, null, 1)}\n`;
}
