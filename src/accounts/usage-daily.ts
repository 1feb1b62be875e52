import { Type } from 'typebox';
import { COMMON_ERRORS, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { daysBetween, daysFrom, isCalendarDay } from '../shared/utc-days.js';
import { countPerCreatedDay, type Db } from '../storage/index.js';
import { authOf } from './auth-context.js';
import { periodContaining } from './usage.js';

/** The longest range one request may ask for: a year of daily bars (leap years included). */
export const MAX_USAGE_DAYS = 366;

/** Succeeded test documents per UTC day: test documents are never counted, so the documents log knows them. */
export type TestDocumentsPerDay = (
  teamId: string,
  fromDay: string,
  toDay: string,
) => Promise<Map<string, number>>;

const Day = Type.String({ format: 'date', description: 'A UTC day (YYYY-MM-DD)' });

const DailyUsageQuery = Type.Object(
  {
    from: Type.Optional({
      ...Day,
      description: 'First UTC day, inclusive; default the current period’s first',
    }),
    to: Type.Optional({ ...Day, description: 'Last UTC day, inclusive; default today (UTC)' }),
  },
  { additionalProperties: false },
);

const DailyUsageResponse = named(
  'DailyUsage',
  Type.Object({
    from: Day,
    to: Day,
    live_total: Type.Integer({
      description: 'Counted live documents in the range (the ledger: never swept)',
    }),
    test_total: Type.Integer({
      description: 'Succeeded test documents in the range (records kept 120 days)',
    }),
    data: Type.Array(
      Type.Object({
        day: Day,
        live: Type.Integer({ description: 'Counted live documents created this UTC day' }),
        test: Type.Integer({ description: 'Succeeded test documents created this UTC day' }),
      }),
      { description: 'Every day of the range, oldest first, zeros included' },
    ),
  }),
);

/**
 * Counted live documents per UTC day from the usage ledger (the numbers GET /account/usage sums), computed
 * in SQL: the day is the ISO text's first ten characters, the same on SQLite and PostgreSQL.
 */
export async function liveDocumentsPerDay(
  db: Db,
  teamId: string,
  fromDay: string,
  toDay: string,
): Promise<Map<string, number>> {
  return countPerCreatedDay(db.selectFrom('usage_records').where('team_id', '=', teamId), fromDay, toDay);
}

/** The range asked for, defaults filled in and checked: `from` ≤ `to`, at most MAX_USAGE_DAYS days. */
function dailyRange(query: { from?: string; to?: string }, now: Date): { from: string; to: string } {
  const to = query.to ?? now.toISOString().slice(0, 10);
  const from = query.from ?? periodContaining(now).start.toISOString().slice(0, 10);
  for (const [field, day] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (!isCalendarDay(day))
      throw new AppError('invalid_request', `"${field}" (${day}) is not a calendar day; send YYYY-MM-DD.`, {
        field,
      });
  const span = daysBetween(from, to) + 1;
  if (span < 1)
    throw new AppError('invalid_request', `"from" (${from}) is after "to" (${to}); send from ≤ to.`, {
      field: 'from',
    });
  if (span > MAX_USAGE_DAYS)
    throw new AppError(
      'invalid_request',
      `The range has ${span} days; ask for at most ${MAX_USAGE_DAYS} days per request (move "from" closer to "to").`,
      { field: 'from', max_days: MAX_USAGE_DAYS },
    );
  return { from, to };
}

/** GET /account/usage/daily (extension): the usage chart's numbers, computed by the database for any range. */
export function registerDailyUsageRoute(
  app: App,
  deps: { db: Db; clock: Clock; testDocumentsPerDay: TestDocumentsPerDay },
): void {
  app.get(
    '/account/usage/daily',
    {
      schema: {
        tags: ['Account'],
        operationId: 'getDailyUsage',
        summary: 'Documents per UTC day, live and test (extension)',
        description:
          'Extension: counted live documents (from the usage ledger, the numbers `GET /account/usage` sums) and succeeded test documents per UTC day over `from`..`to` (both inclusive, at most 366 days; default the current period up to today). Every day is listed, zeros included. Any key or session may read it. Errors: `invalid_request` (a day that is not YYYY-MM-DD or does not exist, `from` after `to`, or more than 366 days), `unauthorized`.',
        querystring: DailyUsageQuery,
        response: { 200: DailyUsageResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const teamId = authOf(request).team.id;
      const { from, to } = dailyRange(request.query, deps.clock.now());
      const [live, test] = await Promise.all([
        liveDocumentsPerDay(deps.db, teamId, from, to),
        deps.testDocumentsPerDay(teamId, from, to),
      ]);
      const data = daysFrom(from, to).map((day) => ({
        day,
        live: live.get(day) ?? 0,
        test: test.get(day) ?? 0,
      }));
      reply.header('cache-control', 'no-store');
      return {
        from,
        to,
        live_total: data.reduce((sum, d) => sum + d.live, 0),
        test_total: data.reduce((sum, d) => sum + d.test, 0),
        data,
      };
    },
  );
}
