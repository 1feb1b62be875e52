// A node:test reporter (used beside `spec` by scripts/run-tests.mjs) that writes one JSON document: each test
// file's wall time and the counts of the tests that ran, passed, failed and were skipped. run-tests.mjs prints
// the slowest files from it.
//
// Node reports every process as a test named by its entry file's path, from spawn to exit: that is a file's wall
// time when it has a process of its own. A group of small files sharing one process (scripts/test-groups.mjs) is
// reported as one entry with `group: true`, and each of its members by the sum of its top-level tests' times
// (every test event names the file the test is written in).
export default async function* timings(source) {
  const processes = new Map();
  const topLevel = new Map();
  const counts = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    const { name, file, details, skip, todo, nesting } = event.data ?? {};
    if (file && name === file) {
      // Node 20 ends a file with test:complete only; a file that fails to load also reports test:fail.
      if (event.type === 'test:complete' || event.type === 'test:fail') {
        const failed = event.type === 'test:fail' || details?.passed === false || processes.get(file)?.failed;
        processes.set(file, { file, ms: Math.round(details?.duration_ms ?? 0), failed: Boolean(failed) });
      }
      continue;
    }
    if (event.type === 'test:complete' && nesting === 0 && file) {
      const seen = topLevel.get(file) ?? { file, ms: 0, failed: false };
      seen.ms += details?.duration_ms ?? 0;
      seen.failed ||= details?.passed === false;
      topLevel.set(file, seen);
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (details.type === 'suite') continue;
    counts.tests += 1;
    if (skip || todo) counts.skipped += 1;
    else if (event.type === 'test:pass') counts.passed += 1;
    else counts.failed += 1;
  }
  const files = [];
  for (const entry of processes.values()) files.push(isGroup(entry.file) ? { ...entry, group: true } : entry);
  for (const member of topLevel.values()) {
    if (!processes.has(member.file)) files.push({ ...member, ms: Math.round(member.ms) });
  }
  yield `${JSON.stringify({ ...counts, files }, null, 1)}\n`;
}

/** A group's entry file, written by run-tests.mjs into the compiled mirror's test/.groups/. */
const isGroup = (file) => /[\\/]\.groups[\\/]/.test(file);
