// Loaded (--import) into every test file's process by scripts/run-tests.mjs. Once a file's tests have all
// finished, the process gets LINGER_MS to end by itself; if a handle its tests left open (a socket, a timer)
// still holds it then, it exits with its own status, so one leaked handle cannot hold the whole run for ever.
// Not node's --test-force-exit: that ends a file's process before its last results reach the runner.
//
// "All finished" is not simply the root's `after` hook: in a process that runs a group of files
// (scripts/test-groups.mjs), the root can run out of tests while the next file is still being imported, and its
// `after` hooks then run before that file's tests. So the guard also counts the top-level tests running (root
// beforeEach/afterEach) and ends the process only after LINGER_MS with none running and none started.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, beforeEach } from 'node:test';
import { isMainThread } from 'node:worker_threads';
import { cpuSeconds } from './process-cpu.mjs';

const LINGER_MS = 60_000;

// node --test sets NODE_TEST_CONTEXT in the processes it starts for files; the runner itself loads this too,
// and so do the worker threads of a test process (they inherit its execArgv).
if (process.env.NODE_TEST_CONTEXT?.startsWith('child') && isMainThread) {
  let running = 0;
  let lastActivity = Date.now();
  beforeEach(() => {
    running += 1;
    lastActivity = Date.now();
  });
  afterEach(() => {
    running -= 1;
    lastActivity = Date.now();
  });
  const endIfIdle = () => {
    const idleFor = Date.now() - lastActivity;
    if (running > 0 || idleFor < LINGER_MS) {
      setTimeout(endIfIdle, Math.max(1_000, LINGER_MS - idleFor)).unref();
      return;
    }
    process.stderr.write(
      `# ${process.argv[1]}: still running ${LINGER_MS / 1000} s after its last test (a handle left open); ended\n`,
    );
    process.exit();
  };
  after(() => {
    lastActivity = Date.now();
    setTimeout(endIfIdle, LINGER_MS).unref();
  });
}

// run-tests.mjs sets QUIRE_TEST_CPU_DIR: each file's process leaves its CPU time there, named by its path.
const cpuDir = process.env.QUIRE_TEST_CPU_DIR;
if (cpuDir && process.env.NODE_TEST_CONTEXT?.startsWith('child') && isMainThread) {
  process.on('exit', () => {
    try {
      const name = path.basename(process.argv[1]).replace(/[^\w.-]/g, '_');
      writeFileSync(
        path.join(cpuDir, `${name}-${process.pid}.json`),
        JSON.stringify({ file: process.argv[1], cpuSeconds: cpuSeconds() }),
      );
    } catch {
      // Not on Linux, or the directory is gone: the run reports wall times only.
    }
  });
}
