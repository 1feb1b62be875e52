import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { api } from '../../helpers/server.js';
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
