import type { Db } from '../storage/index.js';
import type { RendererGauges } from './registry.js';

/** One gauge read when metrics are collected (a Prometheus scrape, an OTLP export): its values by labels. */
export interface ReadGauge {
  name: string;
  help: string;
  labelNames: string[];
  read(): Promise<Array<{ labels: Record<string, string>; value: number }>>;
}

/**
 * Everything that already has a source of truth — the pool, Chromium relaunches, the queue, deliveries,
 * emails, stored bytes — read at collection time, so no capability carries recording code for it. One
 * definition for both exporters.
 */
export function scrapedGauges(db: Db, renderer: RendererGauges): ReadGauge[] {
  const stat = (pick: (s: { busy: number; queued: number; relaunches: number }) => number) => async () => {
    const stats = await renderer.stats();
    return [{ labels: {}, value: stats ? pick(stats) : 0 }];
  };
  return [
    {
      name: 'quire_pool_pages_busy',
      help: 'Pool pages rendering now.',
      labelNames: [],
      read: stat((s) => s.busy),
    },
    {
      name: 'quire_renders_waiting',
      help: 'Renders waiting for a free pool page.',
      labelNames: [],
      read: stat((s) => s.queued),
    },
    {
      name: 'quire_chromium_relaunches_total',
      help: 'Chromium relaunches after a crash or disconnect since the process started (a counter).',
      labelNames: [],
      read: stat((s) => s.relaunches),
    },
    {
      name: 'quire_jobs',
      help: 'Jobs in the durable queue by kind and status (queued = queue depth; finished rows until swept).',
      labelNames: ['kind', 'status'],
      read: async () => {
        const rows = await db
          .selectFrom('jobs')
          .select(({ fn }) => ['kind', 'status', fn.countAll<number>().as('n')])
          .groupBy(['kind', 'status'])
          .execute();
        return rows.map((r) => ({ labels: { kind: r.kind, status: r.status }, value: Number(r.n) }));
      },
    },
    statusGauge(
      db,
      'webhook_deliveries',
      'quire_webhook_deliveries',
      'Webhook delivery attempts retained in the delivery log, by status.',
    ),
    statusGauge(db, 'email_deliveries', 'quire_emails', 'Emails (deliver.email) by status.'),
    {
      name: 'quire_stored_bytes',
      help: 'Bytes of stored document files (what storage quotas sum).',
      labelNames: [],
      read: async () => {
        // The per-team running totals (migration 0019): a row per team and mode, not one per document.
        const row = await db
          .selectFrom('team_stored_bytes')
          .select(({ fn }) => fn.sum<number>('bytes').as('bytes'))
          .executeTakeFirst();
        return [{ labels: {}, value: Number(row?.bytes ?? 0) }];
      },
    },
  ];
}

/** A gauge of a table's rows by their `status`. */
function statusGauge(
  db: Db,
  table: 'webhook_deliveries' | 'email_deliveries',
  name: string,
  help: string,
): ReadGauge {
  return {
    name,
    help,
    labelNames: ['status'],
    read: async () => {
      const rows = await db
        .selectFrom(table)
        .select(({ fn }) => ['status', fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return rows.map((r) => ({ labels: { status: r.status }, value: Number(r.n) }));
    },
  };
}
