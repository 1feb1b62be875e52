import { Type } from 'typebox';
import { requireManager } from '../accounts/index.js';
import { IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { sendLinkEmail } from './emails.js';
import { createInvitation, openInvitations } from './invitations.js';
import { checkOwnerChange, type MemberRouteDeps } from './member-routes.js';
import { Bodies, InvitationSchema, KEY_OR_SESSION, MANAGERS, MEMBER_ERRORS } from './schemas.js';
import { type UserToken, withdrawInvitations } from './tokens.js';
import { findMembership, findUserByEmail, normalizeEmail } from './users.js';

function presentInvitation(token: UserToken) {
  return {
    id: token.id,
    email: token.email ?? '',
    role: token.role ?? 'member',
    created_at: token.createdAt,
    expires_at: token.expiresAt,
  };
}

/**
 * The team's invitations (contract: Members): listed, made and withdrawn by those who manage members only
 * (requireManager), since a listed invitation shows who is about to join and with which role.
 */
export function registerInvitationRoutes(app: App, deps: MemberRouteDeps): void {
  const { db, clock } = deps;

  app.get(
    '/members/invitations',
    {
      schema: {
        tags: ['Team'],
        operationId: 'listInvitations',
        security: KEY_OR_SESSION,
        summary: 'List open invitations, oldest first (admins and owners)',
        description: `${MANAGERS} Invitations whose creator was removed, demoted below admin, or (a key) revoked are withdrawn and not listed. Errors: \`forbidden\` (a test key, a member key or a member’s session), \`invalid_api_key\`.`,
        response: { 200: Type.Object({ data: Type.Array(InvitationSchema) }), ...MEMBER_ERRORS },
      },
    },
    async (request) => {
      const auth = requireManager(request, 'list invitations');
      return { data: (await openInvitations(db, clock, auth.team.id)).map(presentInvitation) };
    },
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
        response: { 201: InvitationSchema, ...MEMBER_ERRORS },
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
        response: { 204: Type.Null(), ...MEMBER_ERRORS },
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
