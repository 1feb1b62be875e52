import { Type } from 'typebox';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, ErrorResponse, IdParams, Nullable, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/db.js';
import { authOf, requireRole } from './auth-context.js';
import { type ApiKey, createApiKey } from './teams.js';

const KeyMode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

const KeySchema = named(
  'ApiKey',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    mode: KeyMode,
    prefix: Type.String({ description: 'The first 12 characters, to recognise the key' }),
    created_at: DateTime,
    revoked_at: Nullable(DateTime),
  }),
);

const CreateKeyBody = named(
  'CreateApiKeyRequest',
  Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 100 }), mode: KeyMode },
    { additionalProperties: false },
  ),
);

const CreatedKey = named(
  'CreatedApiKey',
  Type.Object({ key: KeySchema, secret: Type.String({ description: 'The key itself, shown only now' }) }),
);

const ERRORS = { ...COMMON_ERRORS, 404: ErrorResponse };
const TAGS = ['Dashboard'];
/** A bearer key or the dashboard session (OpenAPI security). */
const SECURITY: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }];

function present(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    mode: key.mode,
    prefix: key.prefix,
    created_at: key.createdAt,
    revoked_at: key.revokedAt,
  };
}

async function teamKeys(db: Db, teamId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'team_id', 'name', 'mode', 'prefix', 'created_at', 'revoked_at'])
    .where('team_id', '=', teamId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    teamId: r.team_id,
    name: r.name,
    mode: r.mode,
    prefix: r.prefix,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  }));
}

/**
 * API keys of the caller's team (contract: API keys): everyone lists, admins and owners create and revoke.
 * Works with a session or a bearer key; a key cannot revoke itself.
 */
export function registerKeyRoutes(app: App, deps: { db: Db; clock: Clock }): void {
  app.get(
    '/keys',
    {
      schema: {
        tags: TAGS,
        operationId: 'listApiKeys',
        security: SECURITY,
        summary: 'List the team’s API keys, newest first (prefixes only)',
        response: { 200: Type.Object({ data: Type.Array(KeySchema) }), ...ERRORS },
      },
    },
    async (request) => ({ data: (await teamKeys(deps.db, authOf(request).team.id)).map(present) }),
  );

  app.post(
    '/keys',
    {
      schema: {
        tags: TAGS,
        operationId: 'createApiKey',
        security: SECURITY,
        summary: 'Create an API key (admins and owners; the secret is shown only now)',
        body: withExamples(CreateKeyBody, {
          ci: { summary: 'A live key for CI', value: { name: 'CI', mode: 'live' } },
        }),
        response: { 201: CreatedKey, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { team } = requireRole(request, 'admin');
      const created = await createApiKey(deps.db, deps.clock, {
        teamId: team.id,
        mode: request.body.mode,
        name: request.body.name.trim() || `${request.body.mode} key`,
      });
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ key: present(created.apiKey), secret: created.key });
    },
  );

  app.delete(
    '/keys/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'revokeApiKey',
        security: SECURITY,
        summary: 'Revoke an API key (admins and owners)',
        params: IdParams,
        response: { 200: KeySchema, ...ERRORS },
      },
    },
    async (request) => {
      const auth = requireRole(request, 'admin');
      const { id } = request.params;
      if (auth.key?.id === id) {
        throw new AppError(
          'forbidden',
          'A key cannot revoke itself. Revoke it with another key or the dashboard.',
        );
      }
      const key = (await teamKeys(deps.db, auth.team.id)).find((k) => k.id === id);
      if (!key) throw new AppError('not_found', `No API key ${id} in this team.`);
      if (key.revokedAt) return present(key);
      const revokedAt = deps.clock.now().toISOString();
      await deps.db
        .updateTable('api_keys')
        .set({ revoked_at: revokedAt })
        .where('id', '=', id)
        .where('team_id', '=', auth.team.id)
        .execute();
      return present({ ...key, revokedAt });
    },
  );
}
