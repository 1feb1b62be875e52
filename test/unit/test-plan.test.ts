import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  classify,
  integrationFiles,
  opensDatabase,
  POSTGRES_PASS,
  root,
  SQLITE_ONLY,
  unclassifiedMessage,
} from '../../scripts/test-plan.mjs';

const relative = (f: string) => path.relative(root, f).split(path.sep).join('/');

describe('the PostgreSQL pass (scripts/test-plan.mjs)', () => {
  it('leaves no test file that opens a database unclassified', () => {
    const { unclassified } = classify(integrationFiles());
    assert.deepEqual(unclassified, [], unclassifiedMessage(unclassified));
  });

  it('runs the billing files that reach the database through billingHarness() on PostgreSQL', () => {
    const postgres = classify(integrationFiles()).postgres.map(relative);
    for (const file of [
      'test/integration/billing/enforcement.test.ts',
      'test/integration/billing/periods.test.ts',
      'test/integration/billing/killed-render.test.ts',
      'test/integration/jobs/queue.test.ts',
      'test/integration/pdf/idempotency.test.ts',
      'test/integration/storage/migrate-data.test.ts',
    ]) {
      assert.ok(postgres.includes(file), `${file} is not in the PostgreSQL pass`);
    }
    assert.ok(!postgres.includes('test/integration/dashboard/dashboard.test.ts'));
    assert.ok(!postgres.includes('test/integration/foundation/fuzz.test.ts'));
  });

  it('names only paths that exist, each with a reason', () => {
    for (const group of [...POSTGRES_PASS, ...SQLITE_ONLY]) {
      assert.ok(group.reason.length > 20, `give ${group.paths.join(', ')} a reason`);
      for (const p of group.paths) assert.ok(existsSync(path.join(root, p)), `${p} is listed but missing`);
    }
  });

  it('finds a database opened through an imported helper, and asks for a new file to be listed', () => {
    // Under .tmp/, where no run looks for tests.
    mkdirSync(path.join(root, '.tmp'), { recursive: true });
    const dir = mkdtempSync(path.join(root, '.tmp', 'test-plan-'));
    try {
      writeFileSync(path.join(dir, 'harness.ts'), 'export const h = () => startTestServer();\n');
      const file = path.join(dir, 'new.test.ts');
      writeFileSync(file, "import { h } from './harness.js';\nh();\n");
      const plain = path.join(dir, 'plain.test.ts');
      writeFileSync(plain, "import { api } from '../../test/helpers/server.js';\napi();\n");
      assert.equal(opensDatabase(file), true);
      assert.equal(opensDatabase(plain), false);
      const { unclassified } = classify([file, plain]);
      assert.deepEqual(unclassified, [relative(file)]);
      assert.match(
        unclassifiedMessage(unclassified),
        /Add each path to POSTGRES_PASS .* else to SQLITE_ONLY/s,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
