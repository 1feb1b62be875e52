import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { api } from '../../helpers/server.js';

const run = promisify(execFile);

/** Polls until `probe` returns a value (the background work is asynchronous by design). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null>,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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

/** Waits until the batch completed (or was canceled and completed) and returns it. */
export async function waitForBatch(base: string, key: string, id: string) {
  return waitFor(`batch ${id} to complete`, async () => {
    const r = await api(base, 'GET', `/v1/batches/${id}`, { key });
    return r.json?.completed_at ? r.json : null;
  });
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
