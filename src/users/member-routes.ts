import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  type ApiKey,
  type AuthContext,
  authOf,
  hasRole,
  keysMadeBy,
  presentApiKey,
  type Role,
  requireManager,
  revokeKeys,
  teamKeys,
} from '../accounts/index.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import type { LinkMail } from './emails.js';
import {
  Bodies,
  KEY_OR_SESSION,
  MANAGERS,
  MEMBER_ERRORS,
  MemberChangeSchema,
  MemberSchema,
  RemoveMemberQuery,
  UserIdSchema,
} from './schemas.js';
import { withdrawInvitations } from './tokens.js';
import { changeKeepingAnOwner, findMembership, type Membership } from './users.js';

export interface MemberRouteDeps {
  db: Db;
  clock: Clock;
  mail: LinkMail;
  /** Invitation emails a team may send in any 24 hours (QUIRE_INVITATIONS_PER_DAY). */
  invitationsPerDay: number;
}

const LAST_OWNER = 'A team needs at least one owner.';
const UserParams = Type.Object({ user: UserIdSchema }, { additionalProperties: false });
const KEYS_STAY =
  'Extension: the answer lists in `created_api_keys` the active API keys the member made (directly or through a key they made), never their secrets; `revoke_keys` revokes them in the same transaction. Without it those keys keep working: a key acts with its own role, whoever made it.';

/** The team's members, oldest first; only `userId` when given. */
async function listMembers(db: Db, teamId: string, userId?: string) {
  let query = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.team_id', '=', teamId);
  if (userId !== undefined) query = query.where('memberships.user_id', '=', userId);
  const rows = await query.orderBy('memberships.created_at').orderBy('users.id').execute();
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

async function findMember(db: Db, teamId: string, userId: string) {
  const member = (await listMembers(db, teamId, userId))[0];
  if (!member) throw new AppError('not_found', `No member ${userId} in this team.`);
  return member;
}

/** Only owners make or unmake owners (contract: Roles). */
export function checkOwnerChange(callerRole: Role, from: Role | null, to: Role | null): void {
  if ((from === 'owner' || to === 'owner') && !hasRole(callerRole, 'owner')) {
    throw new AppError('forbidden', 'Only an owner can give or take the owner role.');
  }
}

/** The manager's target: a member of the manager's team, whose role the manager may take away. */
async function targetOf(db: Db, auth: AuthContext, userId: string, to: Role | null): Promise<Membership> {
  const membership = await findMembership(db, userId, auth.team.id);
  if (!membership) throw new AppError('not_found', `No member ${userId} in this team.`);
  checkOwnerChange(auth.role, membership.role, to);
  return membership;
}

/**
 * The active keys the member made, revoked when asked. Run in the role change's own transaction: the member
 * loses the role and the keys together, or (a refusal, a failure) keeps both.
 */
async function settleKeys(
  trx: Db,
  clock: Clock,
  member: { teamId: string; userId: string },
  revoke: boolean | undefined,
): Promise<ApiKey[]> {
  const keys = keysMadeBy(await teamKeys(trx, member.teamId), member.userId);
  return revoke ? revokeKeys(trx, clock, member.teamId, keys) : keys;
}

async function changeRole(
  deps: MemberRouteDeps,
  request: FastifyRequest,
  input: { userId: string; role: Role; revokeKeys: boolean | undefined },
) {
  const { db, clock } = deps;
  const auth = requireManager(request, 'change members’ roles');
  const { role } = input;
  const target = await targetOf(db, auth, input.userId, role);
  let keys: ApiKey[] = [];
  const alsoDo = async (trx: Db) => {
    // What they invited with a role they no longer hold is withdrawn with it, in the same transaction.
    if (!hasRole(role, target.role)) {
      await withdrawInvitations(trx, clock, target.teamId, {
        createdBy: { kind: 'user', id: target.userId },
      });
    }
    keys = await settleKeys(trx, clock, target, input.revokeKeys);
  };
  if (!(await changeKeepingAnOwner(db, { teamId: target.teamId, userId: target.userId, role }, alsoDo))) {
    throw new AppError('forbidden', LAST_OWNER);
  }
  const member = await findMember(db, target.teamId, target.userId);
  return { ...member, created_api_keys: keys.map(presentApiKey) };
}

async function removeMember(
  deps: MemberRouteDeps,
  request: FastifyRequest,
  input: { userId: string; revokeKeys: boolean | undefined },
) {
  const { db, clock } = deps;
  const auth = requireManager(request, 'remove members');
  // A DELETE body may be dropped on its way (RFC 9110 gives it no meaning): revoke_keys is a query parameter,
  // and one sent in a body is refused rather than silently left undone.
  if (request.body !== undefined && request.body !== null) {
    throw new AppError(
      'invalid_request',
      'DELETE /v1/members/{user} takes no body: send revoke_keys as a query parameter (?revoke_keys=true).',
    );
  }
  const target = await targetOf(db, auth, input.userId, null);
  const member = await findMember(db, target.teamId, target.userId);
  let keys: ApiKey[] = [];
  const removed = await changeKeepingAnOwner(
    db,
    { teamId: target.teamId, userId: target.userId, role: null },
    async (trx) => {
      // Their sessions in this team end with the membership, and the invitations they made are withdrawn.
      await trx
        .deleteFrom('sessions')
        .where('team_id', '=', target.teamId)
        .where('user_id', '=', target.userId)
        .execute();
      await withdrawInvitations(trx, clock, target.teamId, {
        createdBy: { kind: 'user', id: target.userId },
      });
      keys = await settleKeys(trx, clock, target, input.revokeKeys);
    },
  );
  if (!removed) throw new AppError('forbidden', LAST_OWNER);
  return { ...member, created_api_keys: keys.map(presentApiKey) };
}

/**
 * Team members (contract: Members). Registered in the authenticated /v1 scope: a session or a bearer key;
 * everyone reads; admin and owner sessions and admin live keys manage (accounts/auth-context.ts,
 * requireManager). Invitations are in invitation-routes.ts.
 */
export function registerMemberRoutes(app: App, deps: MemberRouteDeps): void {
  app.get(
    '/members',
    {
      schema: {
        tags: ['Team'],
        operationId: 'listMembers',
        security: KEY_OR_SESSION,
        summary: 'List the team’s members, oldest first',
        description:
          'The team’s members with email, role and when they joined, oldest first. Errors: `invalid_api_key`, `unauthenticated` (a dashboard session that expired).',
        response: { 200: Type.Object({ data: Type.Array(MemberSchema) }), ...MEMBER_ERRORS },
      },
    },
    async (request) => ({ data: await listMembers(deps.db, authOf(request).team.id) }),
  );

  app.put(
    '/members/:user',
    {
      schema: {
        tags: ['Team'],
        operationId: 'setMemberRole',
        security: KEY_OR_SESSION,
        summary: 'Change a member’s role (admins and owners; owner changes by owners)',
        description: `${MANAGERS} A demotion withdraws the open invitations the member made. ${KEYS_STAY} Errors: \`not_found\` (not a member of this team), \`forbidden\` (also: the last owner cannot be demoted), \`invalid_request\`.`,
        params: UserParams,
        body: Bodies.memberRole,
        response: { 200: MemberChangeSchema, ...MEMBER_ERRORS },
      },
    },
    (request) =>
      changeRole(deps, request, {
        userId: request.params.user,
        role: request.body.role,
        revokeKeys: request.body.revoke_keys,
      }),
  );

  app.delete(
    '/members/:user',
    {
      schema: {
        tags: ['Team'],
        operationId: 'removeMember',
        security: KEY_OR_SESSION,
        summary: 'Remove a member from the team (admins and owners)',
        description: `${MANAGERS} Their sessions in this team end and the open invitations they made are withdrawn. The answer is the member as they were. ${KEYS_STAY} Here \`revoke_keys\` is a query parameter (\`?revoke_keys=true\`). Errors: \`not_found\` (not a member of this team), \`forbidden\` (also: the last owner cannot be removed), \`invalid_request\`.`,
        params: UserParams,
        querystring: RemoveMemberQuery,
        response: { 200: MemberChangeSchema, ...MEMBER_ERRORS },
      },
    },
    (request) =>
      removeMember(deps, request, { userId: request.params.user, revokeKeys: request.query.revoke_keys }),
  );
}
