// Loaded (--import) into every test file's process by scripts/run-tests.mjs. Once a file's tests have all
// finished, the process gets LINGER_MS to end by itself; if a handle its tests left open (a socket, a timer)
// still holds it then, it exits with its own status, so one leaked handle cannot hold the whole run for ever.
// Not node's --test-force-exit: that ends a file's process before its last results reach the runner.
import { after } from 'node:test';
import { isMainThread } from 'node:worker_threads';

const LINGER_MS = 60_000;

// node --test sets NODE_TEST_CONTEXT in the processes it starts for files; the runner itself loads this too,
// and so do the worker threads of a test process (they inherit its execArgv).
if (process.env.NODE_TEST_CONTEXT?.startsWith('child') && isMainThread) {
  after(() => {
    setTimeout(() => {
      process.stderr.write(
        `# ${process.argv[1]}: still running ${LINGER_MS / 1000} s after its last test (a handle left open); ended\n`,
      );
      process.exit();
    }, LINGER_MS).unref();
  });
}
