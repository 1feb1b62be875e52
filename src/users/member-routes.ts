import { Type } from 'typebox';
import { authOf, hasRole, type Role, requireManager } from '../accounts/index.js';
import { COMMON_ERRORS, ErrorResponse, IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { type LinkMail, sendLinkEmail } from './emails.js';
import { createInvitation, openInvitations } from './invitations.js';
import { Bodies, InvitationSchema, KEY_OR_SESSION, MemberSchema, UserIdSchema } from './schemas.js';
import { type UserToken, withdrawInvitations } from './tokens.js';
import { changeKeepingAnOwner, findMembership, findUserByEmail, normalizeEmail } from './users.js';

export interface MemberRouteDeps {
  db: Db;
  clock: Clock;
  mail: LinkMail;
  /** Invitation emails a team may send in any 24 hours (QUIRE_INVITATIONS_PER_DAY). */
  invitationsPerDay: number;
}

const ERRORS = { ...COMMON_ERRORS, 404: ErrorResponse, 409: ErrorResponse };
const MANAGERS =
  'Needs an admin or owner session or an admin live key; a test key or a member key gets 403 forbidden.';
const LAST_OWNER = 'A team needs at least one owner.';
const UserParams = Type.Object({ user: UserIdSchema }, { additionalProperties: false });

function presentInvitation(token: UserToken) {
  return {
    id: token.id,
    email: token.email ?? '',
    role: token.role ?? 'member',
    created_at: token.createdAt,
    expires_at: token.expiresAt,
  };
}

async function listMembers(db: Db, teamId: string) {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.team_id', '=', teamId)
    .orderBy('memberships.created_at')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

/** Only owners make or unmake owners (contract: Roles). */
function checkOwnerChange(callerRole: Role, from: Role | null, to: Role | null): void {
  if ((from === 'owner' || to === 'owner') && !hasRole(callerRole, 'owner')) {
    throw new AppError('forbidden', 'Only an owner can give or take the owner role.');
  }
}

/**
 * Team members and invitations (contract: Members). Registered in the authenticated /v1 scope: a session
 * or a bearer key; everyone reads; admin and owner sessions and admin live keys manage (issue 24).
 */
export function registerMemberRoutes(app: App, deps: MemberRouteDeps): void {
  const { db, clock } = deps;

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
        response: { 200: Type.Object({ data: Type.Array(MemberSchema) }), ...ERRORS },
      },
    },
    async (request) => ({ data: await listMembers(db, authOf(request).team.id) }),
  );

  app.put(
    '/members/:user',
    {
      schema: {
        tags: ['Team'],
        operationId: 'setMemberRole',
        security: KEY_OR_SESSION,
        summary: 'Change a member’s role (admins and owners; owner changes by owners)',
        description: `${MANAGERS} A demotion withdraws the open invitations the member made. Errors: \`not_found\` (not a member of this team), \`forbidden\` (also: the last owner cannot be demoted), \`invalid_request\`.`,
        params: UserParams,
        body: Bodies.memberRole,
        response: { 200: MemberSchema, ...ERRORS },
      },
    },
    async (request) => {
      const auth = requireManager(request, 'change members’ roles');
      const userId = request.params.user;
      const membership = await findMembership(db, userId, auth.team.id);
      if (!membership) throw new AppError('not_found', `No member ${userId} in this team.`);
      const role = request.body.role;
      checkOwnerChange(auth.role, membership.role, role);
      // What they invited with a role they no longer hold is withdrawn with it, in the same transaction.
      const withdrawIfDemoted = async (trx: Db) => {
        if (hasRole(role, membership.role)) return;
        await withdrawInvitations(trx, clock, auth.team.id, { createdBy: { kind: 'user', id: userId } });
      };
      if (!(await changeKeepingAnOwner(db, { teamId: auth.team.id, userId, role }, withdrawIfDemoted))) {
        throw new AppError('forbidden', LAST_OWNER);
      }
      const member = (await listMembers(db, auth.team.id)).find((m) => m.user_id === userId);
      if (!member) throw new AppError('not_found', `No member ${userId} in this team.`);
      return member;
    },
  );

  app.delete(
    '/members/:user',
    {
      schema: {
        tags: ['Team'],
        operationId: 'removeMember',
        security: KEY_OR_SESSION,
        summary: 'Remove a member from the team (admins and owners)',
        description: `${MANAGERS} The open invitations the member made are withdrawn. Errors: \`not_found\` (not a member of this team), \`forbidden\` (also: the last owner cannot be removed), \`invalid_request\`.`,
        params: UserParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'remove members');
      const userId = request.params.user;
      const membership = await findMembership(db, userId, auth.team.id);
      if (!membership) throw new AppError('not_found', `No member ${userId} in this team.`);
      checkOwnerChange(auth.role, membership.role, null);
      const removed = await changeKeepingAnOwner(
        db,
        { teamId: auth.team.id, userId, role: null },
        async (trx) => {
          // Their sessions in this team end with the membership, and the invitations they made are withdrawn.
          await trx
            .deleteFrom('sessions')
            .where('team_id', '=', auth.team.id)
            .where('user_id', '=', userId)
            .execute();
          await withdrawInvitations(trx, clock, auth.team.id, { createdBy: { kind: 'user', id: userId } });
        },
      );
      if (!removed) throw new AppError('forbidden', LAST_OWNER);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/members/invitations',
    {
      schema: {
        tags: ['Team'],
        operationId: 'listInvitations',
        security: KEY_OR_SESSION,
        summary: 'List open invitations, oldest first',
        description:
          'Invitations whose creator was removed, demoted below admin, or (a key) revoked are withdrawn and not listed. Errors: `forbidden` (a test or member key), `invalid_api_key`.',
        response: { 200: Type.Object({ data: Type.Array(InvitationSchema) }), ...ERRORS },
      },
    },
    async (request) => ({
      data: (await openInvitations(db, clock, authOf(request).team.id)).map(presentInvitation),
    }),
  );

  app.post(
    '/members/invitations',
    {
      schema: {
        tags: ['Team'],
        operationId: 'createInvitation',
        security: KEY_OR_SESSION,
        summary: 'Invite someone by email (admins and owners; the link is emailed, valid 7 days)',
        description: `${MANAGERS} The invitation can be accepted only by the invited address, is withdrawn when its creator is removed or demoted (or, a key, revoked), and counts against the team's invitation emails per 24 hours (QUIRE_INVITATIONS_PER_DAY, default 20): over it, 429 email_limit_reached with details.limit = invitations_per_day and Retry-After. Errors: \`forbidden\`, \`email_taken\` (already a member), \`email_limit_reached\`, \`email_not_verified\`, \`invalid_request\`.`,
        body: Bodies.invite,
        response: { 201: InvitationSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'invite members');
      const email = normalizeEmail(request.body.email);
      checkOwnerChange(auth.role, null, request.body.role);
      const existing = await findUserByEmail(db, email);
      if (existing && (await findMembership(db, existing.id, auth.team.id))) {
        throw new AppError('email_taken', `${email} is already a member of this team.`);
      }
      const { token, record } = await createInvitation(db, clock, {
        auth,
        email,
        role: request.body.role,
        perDay: deps.invitationsPerDay,
      });
      await sendLinkEmail(deps.mail, { to: email, kind: 'invite', token, teamName: auth.team.name });
      return reply.code(201).send(presentInvitation(record));
    },
  );

  app.delete(
    '/members/invitations/:id',
    {
      schema: {
        tags: ['Team'],
        operationId: 'deleteInvitation',
        security: KEY_OR_SESSION,
        summary: 'Withdraw an open invitation (admins and owners)',
        description: `${MANAGERS} A withdrawn invitation still counts in the day's invitation quota. Errors: \`not_found\` (no open invitation with this id), \`forbidden\`.`,
        params: IdParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'withdraw invitations');
      if (!(await withdrawInvitations(db, clock, auth.team.id, { id: request.params.id }))) {
        throw new AppError('not_found', `No open invitation ${request.params.id} in this team.`);
      }
      return reply.code(204).send(null);
    },
  );
}
