import type { PlanId } from '../../../src/accounts/plans.js';
import { type BuiltApp, buildApp } from '../../../src/app.js';
import type { Config } from '../../../src/config/config.js';
import type { EmailMessage, EmailSender } from '../../../src/email/sender.js';
import type { Background } from '../../../src/jobs/background.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { recordPdfEvent } from '../../../src/webhooks/pdf-events.js';
import type { Resolver } from '../../../src/webhooks/url-policy.js';
import { createTestAppConfig, createTestTeam } from '../../helpers/server.js';

/**
 * The real app (real SQLite, real HTTP) with the webhook routes and the background loop wired the way
 * src/app.ts is expected to wire them, on a manual clock so hours pass without sleeping.
 */
export interface Harness {
  base: string;
  built: BuiltApp;
  clock: ManualClock;
  background: Background;
  emails: EmailMessage[];
  team(plan?: PlanId): Promise<{ id: string; live: string; test: string }>;
  /** Emits pdf.created for a made-up document of the team, as a render would. */
  emit(teamId: string, options?: { test?: boolean; type?: 'pdf.created' | 'pdf.failed' }): Promise<string>;
  /** Lets the job workers send everything due now and waits for it. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  overrides: Partial<Config> = {},
  options: { resolve?: Resolver } = {},
): Promise<Harness> {
  const { config, remove } = await createTestAppConfig('quire-webhooks-', {
    allowPrivateWebhooks: true,
    ...overrides,
  });
  const clock = new ManualClock(Date.now());
  const _log = { info: () => {}, warn: () => {}, error: () => {} };
  const emails: EmailMessage[] = [];
  const email: EmailSender = {
    send: async (m) => {
      emails.push(m);
      return { ok: true, transport: 'log' };
    },
    close: () => {},
  };
  // Long poll and no render workers (deliveries run in the light pool every process has): the tests drive
  // deliveries with settle() so nothing happens between clock moves.
  const built = await buildApp(
    { ...config, workers: 0 },
    {
      clock,
      warmRenderer: false,
      startSweeper: false,
      email,
      jobPollMs: 60_000,
      ...(options.resolve ? { resolveHost: options.resolve } : {}),
    },
  );
  const { db } = built.services;
  const background = built.background;

  await built.app.listen({ host: '127.0.0.1', port: 0 });
  let docs = 0;
  return {
    base: built.services.publicUrl(),
    built,
    clock,
    background,
    emails,
    async team(plan = 'growth') {
      const { team, live, test } = await createTestTeam(db, clock, plan);
      return { id: team.id, live, test };
    },
    async emit(teamId, opts = {}) {
      docs += 1;
      const recorded = await db.transaction().execute((trx) =>
        recordPdfEvent(trx, clock, {
          type: opts.type ?? 'pdf.created',
          teamId,
          test: opts.test ?? false,
          document: {
            id: `00000000-0000-4000-8000-${String(docs).padStart(12, '0')}`,
            status: 'succeeded',
            pages: 1,
          },
          filename: `doc-${docs}.pdf`,
          metadata: { n: docs },
          batchId: null,
        }),
      );
      return recorded.envelope.id;
    },
    async settle() {
      background.wake();
      await background.idle();
    },
    async close() {
      await built.close();
      await remove();
    },
  };
}
