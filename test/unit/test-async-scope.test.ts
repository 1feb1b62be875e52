import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { root } from '../../scripts/test-plan.mjs';

const run = promisify(execFile);
const SCOPE = pathToFileURL(path.join(root, 'scripts', 'test-async-scope.mjs')).href;

/**
 * Tests declared after an await, nested suites, errors from timers and rejected promises during a test and
 * after it: each must be reported as node's own hook reports it. The file also says whether V8 tracks the
 * collection of every promise (a destroy hook), the cost scripts/test-async-scope.mjs removes.
 */
const FIXTURE = `
import { describe, it, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
const { destroyHooksExist } = createRequire(import.meta.url)('internal/async_hooks');
describe('outer', async () => {
  it('a', () => {});
  await sleep(5);
  it('declared after an await', () => {});
  describe('inner', () => { it('b', async () => { await sleep(1); }); });
});
test('a timer throws during the test', async () => {
  setTimeout(() => { throw new Error('boom from a timer'); }, 5);
  await sleep(200);
});
test('a promise rejects unhandled', async () => {
  Promise.reject(new Error('unhandled boom'));
  await sleep(200);
});
test('ends, then a timer throws', () => { setTimeout(() => { throw new Error('late boom'); }, 20); });
test('subtest', async (t) => {
  await t.test('child', async () => { await sleep(1); });
  await sleep(100);
});
test('destroy hooks', () => { console.log('destroy-hooks=' + destroyHooksExist()); });
`;

describe('node:test without its destroy hook (scripts/test-async-scope.mjs)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-async-scope-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  const file = path.join(scratch, 'fixture.test.mjs');
  writeFileSync(file, FIXTURE);

  async function report(extra: string[]): Promise<string> {
    const args = [...extra, '--expose-internals', '--test', '--test-reporter=spec', file];
    // Not as a child of this runner (NODE_TEST_CONTEXT): its own runner, reporting in text.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const { stdout } = await run(process.execPath, args, { cwd: scratch, env }).catch(
      (error: { stdout: string }) => error,
    );
    // Durations and the closing totals' time differ between runs.
    return stdout.replace(/\(\d+(\.\d+)?ms\)/g, '').replace(/duration_ms [\d.]+/, '');
  }

  it('reports every test, suite and error as node does, with no promise tracked for its collection', async () => {
    const [own, scoped] = await Promise.all([report([]), report(['--import', SCOPE])]);
    assert.match(own, /destroy-hooks=true/, "node's own hook tracks every promise");
    assert.match(scoped, /destroy-hooks=false/);
    assert.equal(scoped.replace('destroy-hooks=false', ''), own.replace('destroy-hooks=true', ''));
    // What node's report holds, so that equal reports mean something.
    assert.match(scoped, /▶ outer\n {2}✔ a \n {2}✔ declared after an await \n {2}▶ inner\n {4}✔ b /);
    assert.match(scoped, /✖ a timer throws during the test[\s\S]*boom from a timer/);
    assert.match(scoped, /✖ a promise rejects unhandled[\s\S]*unhandled boom/);
    assert.match(
      scoped,
      /Test "ends, then a timer throws" at .* generated asynchronous activity after the test ended/,
    );
  });
});
