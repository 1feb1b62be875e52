import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PlanId } from '../../../src/accounts/plans.js';
import { api, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const run = promisify(execFile);

/** A stored template printing the item's data (live key: test keys cannot create templates). */
export async function createTemplate(
  base: string,
  liveKey: string,
  html = '<p>Invoice {{ number }} for {{ customer.name }}</p>',
): Promise<string> {
  const created = await api(base, 'POST', '/v1/templates', {
    key: liveKey,
    body: { name: 'Invoice', html, settings: { mode: 'fast' } },
  });
  assert.equal(created.status, 201, created.text);
  return created.json.id as string;
}

/** A new team on `plan` with a template of createTemplate's (`html`, or its default): both. */
export async function teamWithTemplate(server: TestServer, plan: PlanId, html?: string) {
  const team = await server.team(plan);
  return { team, templateId: await createTemplate(server.base, team.live, html) };
}

/** Batch items for createTemplate's default HTML, one a `[number, customer name]` pair. */
export function invoiceItems(...rows: Array<[string, string]>) {
  return rows.map(([number, name]) => ({ data: { number, customer: { name } } }));
}

/**
 * Waits until the batch completed (or was canceled and completed) and returns it. Pass the team's live
 * key (it sees test batches too): polling once a second stays inside its per-minute budget, while a test
 * key's 20 requests a minute would run out during a slow batch.
 */
export async function waitForBatch(base: string, liveKey: string, id: string) {
  return waitFor(
    `batch ${id} to complete`,
    async () => {
      const r = await api(base, 'GET', `/v1/batches/${id}`, { key: liveKey });
      return r.json?.completed_at ? r.json : null;
    },
    // A ceiling, not an expectation: a 200-row batch beside a CPU hog took over 90 s.
    300_000,
    1_000,
  );
}

/** Starts a batch with the live key (202) and waits until it completed (waitForBatch): the batch then. */
export async function completedBatch(base: string, liveKey: string, body: Record<string, unknown>) {
  const created = await api(base, 'POST', '/v1/batches', { key: liveKey, body });
  assert.equal(created.status, 202, created.text);
  return waitForBatch(base, liveKey, created.json.id);
}

/** Unpacks a ZIP with the system's unzip: entry name → bytes, in the ZIP's order. */
export async function unzipAll(zip: Buffer): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-zip-'));
  try {
    const file = path.join(dir, 'batch.zip');
    writeFileSync(file, zip);
    const listing = await run('unzip', ['-Z1', file]).catch((err: { stdout?: string; stderr?: string }) => {
      // An empty ZIP lists nothing and makes unzip exit 1 ("Empty zipfile").
      if (
        String(err.stderr ?? '').includes('Empty zipfile') ||
        String(err.stdout ?? '').includes('Empty zipfile')
      )
        return { stdout: '' };
      throw err;
    });
    const names = listing.stdout.split('\n').filter((n) => n.length > 0);
    const out = new Map<string, Buffer>();
    if (names.length === 0) return out;
    const target = path.join(dir, 'x');
    await run('unzip', ['-q', file, '-d', target]);
    for (const name of names) out.set(name, readFileSync(path.join(target, name)));
    assert.equal(readdirSync(target).length, names.length);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
