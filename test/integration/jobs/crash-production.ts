import path from 'node:path';
import { loadPlans } from '../../../src/accounts/plans.js';
import { UsageService } from '../../../src/accounts/usage-service.js';
import { createDocuments, LinkSigner } from '../../../src/documents/index.js';
import { PROTECT_PASSWORDS_PURPOSE } from '../../../src/finishing/index.js';
import { LiquidEngine } from '../../../src/liquid/index.js';
import { createAdmission, createProduction, type Production } from '../../../src/production/index.js';
import { systemClock } from '../../../src/shared/clock.js';
import { AppError } from '../../../src/shared/errors.js';
import { MemoryTeamSlots } from '../../../src/shared/team-slots.js';
import { FsBlobStore } from '../../../src/storage/blob-store.js';
import type { Db } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { PLAIN_HTML_DEPS } from './plain-html-deps.js';

/**
 * The production use case for the crash test, with a stand-in for Chromium: documents are
 * `<p data-n="N">`; with `hang`, N >= 8 renders until aborted (so they are running when the process dies).
 */
export function crashProduction(db: Db, dataDir: string, hang: boolean): Production {
  const plans = loadPlans(null);
  const blobs = new FsBlobStore(path.join(dataDir, 'blobs'));
  const usage = new UsageService({ db, plans });
  const documents = createDocuments({
    db,
    clock: systemClock,
    usage,
    blobs,
    signer: new LinkSigner(loadServerSecret(dataDir)),
    publicUrl: () => 'http://127.0.0.1:1',
    makeThumbnail: async () => Buffer.alloc(0),
  });
  const liquid = new LiquidEngine();
  const delivery = {
    assertAllowed: async () => {},
    queue: async () => ({ email: { status: 'queued' as const } }),
  };
  return createProduction({
    clock: systemClock,
    renderer: {
      async render(job) {
        const n = Number(/data-n="(\d+)"/.exec(job.html)?.[1]);
        if (hang && n >= 8) {
          await new Promise((resolve) => job.signal?.addEventListener('abort', resolve));
          throw new AppError('render_failed', 'stopped');
        }
        return {
          pdf: Buffer.from(`%PDF-1.7 ${n}`),
          pages: 1,
          mode: 'fast',
          blockedResources: [],
          blockedCount: 0,
          warnings: [],
          timings: { loadMs: 0, analyzeMs: 0, pdfMs: 0, postMs: 0 },
        };
      },
    },
    liquid: {
      renderSource: async (source, data) => liquid.renderSource(source, data),
      check: async (source) => liquid.check(source),
    },
    ...PLAIN_HTML_DEPS,
    slots: new MemoryTeamSlots(),
    blobs,
    ledger: documents.ledger,
    lifecycle: documents.lifecycle,
    admission: createAdmission({
      clock: systemClock,
      usage,
      ledger: documents.ledger,
      delivery,
      maxPreparing: 64,
      dataDir,
      minFreeBytes: 0,
    }),
    delivery,
    findDocument: documents.findById,
    planOf: async () => plans.growth,
    passwords: createSecretBox(loadServerSecret(dataDir), PROTECT_PASSWORDS_PURPOSE),
  });
}
