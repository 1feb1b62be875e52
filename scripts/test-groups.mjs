// Fewer, fatter processes. A test file's process spends about 1.3 s of CPU loading the app's
// modules before its first test (a unit test's process, 0.2–0.5 s) (measured: a file that starts one server and stops it costs 1.6 s, an empty file
// 0.1 s), and the suite runs over a hundred and fifty integration files on two cores. Small integration files are
// therefore run several to a process: scripts/run-tests.mjs writes, into the compiled mirror, one entry file per
// group that imports its members one after the other, and node's runner treats it as one test file. Every test
// still reports the file it is written in (node's events carry it), so the spec output, the per-file timings and
// the failures name the real file.
//
// A file runs on its own when grouping could change what it tests or how it is timed: its whole folder is listed
// below with the reason, it registers tests or hooks at its top level (those would join the group's root and run
// around other files' tests), or it is long enough that the process's start-up no longer matters (and a long
// file alone is easier for the runner to schedule).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const UNGROUPED = [
  {
    paths: ['test/integration/dashboard/', 'test/visual/'],
    reason:
      "long, each with a browser context of its own in the run's browser (the editor a Chromium of its own): grouping saves nothing",
  },
  {
    paths: ['test/integration/render/'],
    reason: "Chromium's own processes are killed, counted and timed there",
  },
  {
    paths: ['test/integration/foundation/data-dir.test.ts', 'src/storage/backup.test.ts'],
    reason: "changes the process's umask (and working directory)",
  },
];

/** Where grouped files may come from: the integration tests and the unit tests (src/**, test/unit/). */
const GROUPED_FOLDERS = [
  `test${path.sep}integration${path.sep}`,
  `test${path.sep}unit${path.sep}`,
  `src${path.sep}`,
];
/** A file recorded as taking longer than this runs alone: its start-up is a small part of it. */
const ALONE_FROM_MS = 20_000;
/** A group is closed once its members' recorded times reach this. */
const GROUP_MS = 40_000;
const TOP_LEVEL_TEST_OR_HOOK = /^(?:test|it|before|after|beforeEach|afterEach)\(/m;
/** A statement at the top level (column 0) that awaits. */
const TOP_LEVEL_AWAIT = /^(?:(?:export\s+)?(?:const|let|var)\s[^=]*=\s*)?await\b/m;

function listed(relative) {
  return UNGROUPED.some(({ paths }) =>
    paths.some((p) => (p.endsWith('/') ? relative.startsWith(p) : relative === p)),
  );
}

/** Whether `file` (a repository path) may share a process with other files. */
export function groupable(root, file, costMs) {
  const relative = path.relative(root, file);
  if (!GROUPED_FOLDERS.some((folder) => relative.startsWith(folder)) || listed(relative)) return false;
  if (costMs > ALONE_FROM_MS) return false;
  // A file whose tests all sit in describe blocks registers nothing at the root but those blocks. One with a
  // top-level await would keep the group's later files waiting while the root runs out of tests.
  const source = readFileSync(file, 'utf8');
  return !TOP_LEVEL_TEST_OR_HOOK.test(source) && !TOP_LEVEL_AWAIT.test(source);
}

/**
 * The pass's processes: each an array of files, a group when it holds more than one. Groupable files are
 * packed in path order (a folder's files share their set-up code, already loaded), up to GROUP_MS of recorded
 * time a group.
 */
export function planProcesses(root, files, cost) {
  const alone = [];
  const pooled = [];
  for (const file of files) (groupable(root, file, cost(file)) ? pooled : alone).push(file);
  const groups = [];
  let current = [];
  let currentMs = 0;
  for (const file of [...pooled].sort()) {
    current.push(file);
    currentMs += cost(file);
    if (currentMs >= GROUP_MS) {
      groups.push(current);
      current = [];
      currentMs = 0;
    }
  }
  if (current.length > 0) groups.push(current);
  return [...alone.map((file) => [file]), ...groups];
}

/** The body of a group's entry file: its members imported one after the other, by file URL. */
export function groupEntrySource(memberUrls) {
  return [
    '// Written by scripts/run-tests.mjs (scripts/test-groups.mjs): these test files share one process.',
    ...memberUrls.map((url) => `await import(${JSON.stringify(url)});`),
    '',
  ].join('\n');
}
