import { Type } from 'typebox';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, ErrorResponse, IdParams, Nullable, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { pick } from '../shared/pick.js';
import type { Db } from '../storage/index.js';
import type { KeyRole } from './api-keys.js';
import { type AuthContext, authOf, creatorOfRequest, requireManager } from './auth-context.js';
import { teamKeys } from './team-keys.js';
import { type ApiKey, createApiKey } from './teams.js';

const KeyMode = Type.Union([Type.Literal('live'), Type.Literal('test')]);
const ROLE_TEXT =
  '`admin`: a live admin key also manages API keys, members and invitations. `member`: renders and reads. A test key never manages, whatever its role.';
const keyRole = (description: string) =>
  Type.Union([Type.Literal('admin'), Type.Literal('member')], { description });
const CreatedBy = Type.Union(
  [
    Type.Object({
      kind: Type.Union([Type.Literal('user'), Type.Literal('key')]),
      id: Type.String({ description: 'The user id (usr_…) or the API key id' }),
    }),
    Type.Null(),
  ],
  {
    description:
      'Who made the key: a dashboard user or another key. null: made by the operator (first run, `quire team create`, `quire key create`) or before this was recorded.',
  },
);

/** An API key as the API shows it (never the secret). */
export const KeySchema = named(
  'ApiKey',
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    mode: KeyMode,
    role: keyRole(ROLE_TEXT),
    prefix: Type.String({ description: 'The first 12 characters, to recognise the key' }),
    created_at: DateTime,
    created_by: CreatedBy,
    revoked_at: Nullable(DateTime),
  }),
);

const CreateKeyBody = named(
  'CreateApiKeyRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      mode: KeyMode,
      role: Type.Optional(keyRole(`${ROLE_TEXT} Default member.`)),
    },
    { additionalProperties: false },
  ),
);

const CreatedKey = named(
  'CreatedApiKey',
  Type.Object({ key: KeySchema, secret: Type.String({ description: 'The key itself, shown only now' }) }),
);

const ERRORS = { ...COMMON_ERRORS, 404: ErrorResponse };
const TAGS = ['Team'];
/** A bearer key or the dashboard session (OpenAPI security). */
const SECURITY: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }];

export function present(key: ApiKey) {
  return {
    ...pick(key, ['id', 'name', 'mode', 'role', 'prefix']),
    created_at: key.createdAt,
    created_by: key.createdBy,
    revoked_at: key.revokedAt,
  };
}

/** The dashboard in test mode acts like a test key, which never makes live keys. */
function checkModeMayCreate(auth: AuthContext, mode: ApiKey['mode']): void {
  if (mode === 'live' && auth.mode === 'test') {
    throw new AppError(
      'forbidden',
      'A test-mode dashboard session cannot create live keys. Switch the dashboard to live mode (PUT /v1/session/mode {"mode":"live"}) first.',
    );
  }
}

/**
 * API keys of the caller's team (contract: API keys): everyone lists; admin and owner sessions and admin live
 * keys create and revoke. A key cannot revoke itself.
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
        description:
          'The team’s API keys with prefix, mode, role, creator and creation and revocation dates. A key is shown in full only once, when created; the prefix tells them apart. Errors: `invalid_api_key`, `unauthenticated` (a dashboard session that expired).',
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
        summary: 'Create an API key (admin live key or admin session; the secret is shown only now)',
        description:
          'Needs an admin or owner session or an admin live key; a test key gets 403 forbidden, and so does a test-mode session asking for a live key. `role` defaults to member. The new key records its creator in `created_by`. Errors: `forbidden`, `invalid_request`.',
        body: withExamples(CreateKeyBody, {
          ci: { summary: 'A live key for CI', value: { name: 'CI', mode: 'live' } },
          admin: {
            summary: 'A live admin key for automation that manages keys and members',
            value: { name: 'Provisioning', mode: 'live', role: 'admin' },
          },
        }),
        response: { 201: CreatedKey, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'create API keys');
      checkModeMayCreate(auth, request.body.mode);
      const role: KeyRole = request.body.role ?? 'member';
      const created = await createApiKey(deps.db, deps.clock, {
        teamId: auth.team.id,
        mode: request.body.mode,
        role,
        name: request.body.name.trim() || `${request.body.mode} key`,
        createdBy: creatorOfRequest(auth),
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
        summary: 'Revoke an API key (admin live key or admin session)',
        description:
          'Needs an admin or owner session or an admin live key (a test key gets 403 forbidden). Invitations the key made are withdrawn with it. Errors: `not_found` (no such key in this team), `forbidden`, `invalid_request`.',
        params: IdParams,
        response: { 200: KeySchema, ...ERRORS },
      },
    },
    async (request) => {
      const auth = requireManager(request, 'revoke API keys');
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
