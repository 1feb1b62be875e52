// Loaded (--import) into every test process by scripts/run-tests.mjs, before anything loads node:test.
//
// Node 20's test runner finds the test an asynchronous resource belongs to (the parent of an `it` called in a
// `describe`, the test an uncaught error fails) through an async hook with a `destroy` callback
// (lib/internal/test_runner/harness.js). A destroy callback makes V8 track every promise's collection: about
// 2.4 µs a promise (2 million awaits: 4.9 s of CPU, 0.16 s without the hook), which was a large share of the
// suite's CPU in a promise-heavy server. Here the harness gets an equivalent hook without `destroy`: each new
// resource carries the test it was created under (as AsyncLocalStorage does, 0.18 µs a promise), and the
// harness's own table is filled only where it looks an id up — when a test or hook is declared, or an error
// reaches the process. What a test reports, and which test an error fails, stay as before.
import asyncHooks from 'node:async_hooks';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const OWNER = Symbol('quire.test-owner');
const { createHook, executionAsyncId, executionAsyncResource } = asyncHooks;
/** The harness's own init callback: given a Test as the resource, it records asyncId → that test. */
let harnessInit;

/**
 * node:test's Test (and Suite, TestHook), by its prototype: the hook sees it from AsyncResource's constructor,
 * before Test's own constructor has set any field.
 */
function isTest(resource) {
  return typeof resource?.runInAsyncScope === 'function' && typeof resource.createSubtest === 'function';
}

/** The harness's lookups of the current resource: its test is recorded first, where there is one. */
function harnessExecutionAsyncId() {
  const id = executionAsyncId();
  const owner = executionAsyncResource()?.[OWNER];
  if (owner !== undefined && harnessInit) harnessInit(id, 'QuireTestScope', 0, owner);
  return id;
}

function harnessHook(callbacks) {
  harnessInit = callbacks.init;
  return createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (isTest(resource)) {
        resource[OWNER] = resource;
        callbacks.init(asyncId, type, triggerAsyncId, resource);
        return;
      }
      const owner = executionAsyncResource()?.[OWNER];
      if (owner !== undefined) resource[OWNER] = owner;
    },
  });
}

// The harness takes createHook and executionAsyncId from the module when it loads: executionAsyncId is
// swapped only while node:test loads, so nothing else sees it, and createHook gives others node's own hook.
// Worker threads (which inherit --import) run no tests.
if (isMainThread) {
  asyncHooks.createHook = (callbacks) =>
    new Error().stack?.includes('internal/test_runner/harness')
      ? harnessHook(callbacks)
      : createHook(callbacks);
  asyncHooks.executionAsyncId = harnessExecutionAsyncId;
  try {
    createRequire(import.meta.url)('node:test');
  } finally {
    asyncHooks.executionAsyncId = executionAsyncId;
  }
}
