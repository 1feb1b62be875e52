import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { checkInvitee, creatorMayStillInvite } from './invitations.js';
import { checkPasswordRule, hashPassword, passwordMatches } from './passwords.js';
import { sessionRoute } from './route-docs.js';
import { Bodies, EmptySchema, SessionSchema, VerifiedSchema } from './schemas.js';
import {
  BAD_TOKEN,
  NO_TEAM,
  RESETS_PER_HOUR,
  type SessionActions,
  type SessionRouteDeps,
  sendVerification,
} from './session-actions.js';
import { consumeUserLink, moveSessionToTeam } from './session-steps.js';
import { consumeToken, peekToken } from './tokens.js';
import {
  createUser,
  findMembership,
  findUserByEmail,
  firstMembership,
  markEmailVerified,
  upsertMembership,
} from './users.js';

/** The emailed-link and password routes of the dashboard (/auth/*): links, password change and reset, invitations. */
export function registerAuthRoutes(app: App, deps: SessionRouteDeps, actions: SessionActions): void {
  registerLinkRoutes(app, deps, actions);
  registerInvitationAcceptRoutes(app, deps, actions);
}

/** Sign-in links, the password change and reset, and email verification. */
function registerLinkRoutes(app: App, deps: SessionRouteDeps, actions: SessionActions): void {
  const { db, clock } = deps;
  const { startSession, currentSession, setPassword, sendReset, teamToSignInto } = actions;

  app.post(
    '/auth/link',
    sessionRoute('signInWithLink', { body: Bodies.token, response: { 200: SessionSchema } }),
    async (request, reply) => {
      const token = await consumeUserLink(deps, request.body.token, 'sign_in');
      const membership =
        (token.teamId && (await findMembership(db, token.userId, token.teamId))) ||
        (await firstMembership(db, token.userId));
      if (!membership) throw new AppError('forbidden', NO_TEAM);
      const view = await startSession(request, reply, token.userId, membership.teamId);
      // The link proves the operator's choice of address, not its owner's inbox: ask once for proof.
      if (!view.user.email_verified) await sendVerification(deps, token.userId, view.user.email);
      return view;
    },
  );

  app.put(
    '/auth/password',
    sessionRoute('setPassword', { body: Bodies.password, response: { 200: SessionSchema } }),
    async (request, reply) => {
      const session = await currentSession(request);
      const { password, current_password } = request.body;
      if (session.user.passwordHash) {
        if (current_password === undefined) {
          throw new AppError(
            'invalid_request',
            'Send current_password: this account already has a password.',
            {
              field: 'current_password',
            },
          );
        }
        // Throttled like a sign-in: a stolen session must not become a way to guess the password.
        const attempt = { account: session.user.email, address: request.ip };
        await deps.throttle.before(attempt);
        if (!(await passwordMatches(session.user.passwordHash, current_password))) {
          await deps.throttle.failed(attempt);
          throw new AppError('invalid_credentials', 'The current password is wrong.');
        }
      }
      checkPasswordRule(password);
      await setPassword(session.user.id, password);
      // This session continues under a new id.
      return startSession(request, reply, session.user.id, session.team.id, session.mode);
    },
  );

  app.post(
    '/auth/password-reset',
    sessionRoute('requestPasswordReset', { body: Bodies.reset, response: { 202: EmptySchema } }),
    async (request, reply) => {
      const user = await findUserByEmail(db, request.body.email);
      const hit = await deps.rate.hit(
        `reset:${request.body.email.trim().toLowerCase()}`,
        RESETS_PER_HOUR,
        60 * 60 * 1000,
        clock.now().getTime(),
      );
      // Not awaited: issuing the token and sending the mail happen after the answer, so an existing
      // account's answer does the same work (one lookup, one count) and takes as long as an unknown one's.
      if (user && hit.allowed) {
        void sendReset(user.id, user.email).catch((err: unknown) =>
          deps.mail.log.warn({ err }, 'password reset email failed'),
        );
      }
      return reply.code(202).send({});
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    sessionRoute('confirmPasswordReset', { body: Bodies.tokenPassword, response: { 200: SessionSchema } }),
    async (request, reply) => {
      checkPasswordRule(request.body.password);
      const { userId } = await consumeUserLink(deps, request.body.token, 'reset');
      await setPassword(userId, request.body.password);
      // The emailed link proves the inbox.
      await markEmailVerified(db, userId);
      return startSession(request, reply, userId, await teamToSignInto(userId));
    },
  );

  app.post(
    '/auth/verify-email',
    sessionRoute('verifyEmail', { body: Bodies.token, response: { 200: VerifiedSchema } }),
    async (request) => {
      const { userId } = await consumeUserLink(deps, request.body.token, 'verify');
      await markEmailVerified(db, userId);
      return { email_verified: true as const };
    },
  );
}

/** An invitation accepted by a new user (with a password) or by the signed-in one. */
function registerInvitationAcceptRoutes(app: App, deps: SessionRouteDeps, actions: SessionActions): void {
  const { db, clock } = deps;
  const { startSession, currentSession } = actions;

  app.post(
    '/auth/invitation',
    sessionRoute('acceptInvitationAsNewUser', {
      body: Bodies.tokenPassword,
      response: { 200: SessionSchema },
    }),
    async (request, reply) => {
      const invite = await peekToken(db, clock, request.body.token, 'invite');
      if (!invite?.email || !invite.teamId || !invite.role || !(await creatorMayStillInvite(db, invite))) {
        throw new AppError('invalid_token', BAD_TOKEN);
      }
      if (await findUserByEmail(db, invite.email)) {
        throw new AppError(
          'email_taken',
          `${invite.email} already has an account: sign in, then accept with POST /v1/auth/invitation/accept.`,
        );
      }
      checkPasswordRule(request.body.password);
      if (!(await consumeToken(db, clock, request.body.token, 'invite'))) {
        throw new AppError('invalid_token', BAD_TOKEN);
      }
      const user = await createUser(db, clock, {
        email: invite.email,
        passwordHash: await hashPassword(request.body.password),
        // The invitation reached this inbox.
        emailVerified: true,
      });
      await upsertMembership(db, clock, { teamId: invite.teamId, userId: user.id, role: invite.role });
      return startSession(request, reply, user.id, invite.teamId);
    },
  );

  app.post(
    '/auth/invitation/accept',
    sessionRoute('acceptInvitation', { body: Bodies.token, response: { 200: SessionSchema } }),
    async (request) => {
      const session = await currentSession(request);
      const open = await peekToken(db, clock, request.body.token, 'invite');
      if (!open || !(await creatorMayStillInvite(db, open))) throw new AppError('invalid_token', BAD_TOKEN);
      // Checked before the token is used up, so the invited person can still accept it.
      checkInvitee(open, session.user.email);
      const invite = await consumeToken(db, clock, request.body.token, 'invite');
      if (!invite?.teamId || !invite.role) throw new AppError('invalid_token', BAD_TOKEN);
      // Already a member: the invitation changes nothing (a role is changed by an admin, not a link).
      if (!(await findMembership(db, session.user.id, invite.teamId))) {
        await upsertMembership(db, clock, {
          teamId: invite.teamId,
          userId: session.user.id,
          role: invite.role,
        });
      }
      return moveSessionToTeam(deps, session, invite.teamId);
    },
  );
}
