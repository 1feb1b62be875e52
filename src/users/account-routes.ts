import { Type } from 'typebox';
import { DateTime } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { sessionRoute } from './route-docs.js';
import type { SessionActions, SessionRouteDeps } from './session-actions.js';
import { expiryOf } from './sessions.js';

/** The name a session is shown by: a prefix of its id's hash, which identifies it and reveals nothing. */
const SHOWN_HASH_CHARS = 12;

const SessionListSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The first 12 hex digits of the SHA-256 of the session id' }),
      team: Type.Object({ id: Type.String(), name: Type.String() }),
      mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
      created_at: DateTime,
      last_seen_at: DateTime,
      expires_at: DateTime,
      current: Type.Boolean(),
    }),
  ),
});

const EmailSetupSchema = Type.Object({
  smtp: Type.Boolean({
    description:
      'False: emails are written to DATA_DIR/outbox on the server; set QUIRE_SMTP_URL to send them',
  }),
});

/** The dashboard's account page (extensions): the user's sessions, and whether emails leave the server. */
export function registerAccountRoutes(app: App, deps: SessionRouteDeps, actions: SessionActions): void {
  const { db, clock } = deps;

  app.get(
    '/session/list',
    sessionRoute('listSessions', { response: { 200: SessionListSchema } }),
    async (request) => {
      const session = await actions.currentSession(request);
      const rows = await db
        .selectFrom('sessions')
        .innerJoin('teams', 'teams.id', 'sessions.team_id')
        .select([
          'sessions.id_hash',
          'sessions.mode',
          'sessions.created_at',
          'sessions.last_seen_at',
          'teams.id as team_id',
          'teams.name as team_name',
        ])
        .where('sessions.user_id', '=', session.user.id)
        .orderBy('sessions.created_at', 'desc')
        .execute();
      const now = clock.now().getTime();
      return {
        data: rows
          .map((row) => ({ row, ends: expiryOf(row) }))
          .filter(({ ends }) => ends.getTime() > now)
          .map(({ row, ends }) => ({
            id: row.id_hash.slice(0, SHOWN_HASH_CHARS),
            team: { id: row.team_id, name: row.team_name },
            mode: row.mode,
            created_at: row.created_at,
            last_seen_at: row.last_seen_at,
            expires_at: ends.toISOString(),
            current: row.id_hash === session.idHash,
          })),
      };
    },
  );

  app.delete(
    '/session/others',
    sessionRoute('signOutOtherSessions', { response: { 204: Type.Null() } }),
    async (request, reply) => {
      const session = await actions.currentSession(request);
      await db
        .deleteFrom('sessions')
        .where('user_id', '=', session.user.id)
        .where('id_hash', '!=', session.idHash)
        .execute();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/auth/email-setup',
    sessionRoute('getEmailSetup', { response: { 200: EmailSetupSchema } }),
    async () => ({ smtp: deps.mail.smtp === true }),
  );
}
