import type { TSchema } from 'typebox';
import { noStoreOnSend } from '../http/no-store.js';
import { PUBLIC, SESSION_ONLY, TAGS } from './schemas.js';
import { ERRORS } from './session-actions.js';

/** What a dashboard session route says of itself in the OpenAPI document, besides its schemas. */
interface SessionRouteDoc {
  /** Documentation only: each handler checks the session itself (or takes none, for sign-in and links). */
  security: typeof PUBLIC;
  summary: string;
  description: string;
}

/**
 * The documentation of the session and auth routes (session-routes.ts, auth-routes.ts), by operationId.
 * The prose stands apart so that a route's declaration shows only what it takes and answers.
 */
const DOCS = {
  signIn: {
    security: PUBLIC,
    summary: 'Sign in with email and password (sets the session cookie)',
    description:
      'The cookie is quire_session over http and __Host-quire_session (Secure) over https. Wrong passwords slow later attempts: after 10 from one address it is refused (429, Retry-After 1 s, 2 s, 4 s … up to 15 min after its last failure); after 10 on one account every attempt on it is answered up to 5 s later. No account is locked. Errors: `invalid_credentials` (the answer does not say which of email or password is wrong), `rate_limited` (too many failures: wait Retry-After), `invalid_request`.',
  },
  getSession: {
    security: SESSION_ONLY,
    summary: 'The current session',
    description:
      'The signed-in user, their team and role, the mode (test or live) and the CSRF token the dashboard sends with every change. The dashboard reads it on load; API keys cannot call it. Errors: `unauthenticated` (no session, or it expired: sign in again).',
  },
  signOut: {
    security: SESSION_ONLY,
    summary: 'Sign out (clears the cookie)',
    description:
      'Ends this session and clears its cookie; the user’s other sessions stay signed in. Send the session’s x-csrf-token. Errors: `unauthenticated`, `forbidden` (a missing or wrong x-csrf-token).',
  },
  setSessionMode: {
    security: SESSION_ONLY,
    summary: 'Switch the session between test and live mode',
    description:
      'Extension: the choice is remembered per person and team, and their next session starts in it. ' +
      'Before any choice a session starts in live mode for an owner and in test mode for other roles. ' +
      'In test mode template and brand-asset changes are refused with `forbidden`, in words about the mode.',
  },
  setSessionTeam: {
    security: SESSION_ONLY,
    summary: 'Switch the session to another team of the user',
    description:
      'Switches the session to another team the user belongs to: what the dashboard shows and changes from then on is that team’s. Errors: `unauthenticated`, `forbidden` (not a member of that team, or a wrong x-csrf-token), `invalid_request`.',
  },
  signInWithLink: {
    security: PUBLIC,
    summary: 'Sign in with a single-use sign-in link (24 h)',
    description:
      'Signs in with the token of a single-use sign-in link (printed by the first run or `quire user create`, or emailed; valid 24 hours) and sets the session cookie. The dashboard’s sign-in page calls it. Errors: `invalid_token` (used, expired or unknown: ask for a new link), `invalid_request`, `rate_limited`.',
  },
  setPassword: {
    security: SESSION_ONLY,
    summary: 'Set or change the password (rotates the session id)',
    description:
      'Ends every other session of the user and every unused reset and sign-in link. A wrong current_password counts against the same throttle as a sign-in. Errors: `unauthenticated`, `invalid_credentials` (a wrong current_password), `invalid_request` (10 to 200 characters), `rate_limited`.',
  },
  requestPasswordReset: {
    security: PUBLIC,
    summary: 'Email a password reset link (answers 202 whether or not the account exists)',
    description:
      'The new link replaces any earlier one of the account. It answers 202 whether or not the account exists, so it tells nobody which addresses have accounts. Errors: `invalid_request`, `email_limit_reached`, `rate_limited`.',
  },
  confirmPasswordReset: {
    security: PUBLIC,
    summary: 'Choose a new password with a reset link (signs in)',
    description:
      'Ends every other session of the user and every unused reset and sign-in link. Errors: `invalid_token` (used, expired or unknown: ask for a new link), `invalid_request` (10 to 200 characters).',
  },
  verifyEmail: {
    security: PUBLIC,
    summary: 'Confirm the email address with a verification link',
    description:
      'Confirms the account’s email address with the token of the emailed verification link; actions that send email wait for it (`email_not_verified`). Errors: `invalid_token` (used, expired or unknown: ask for a new link), `invalid_request`.',
  },
  acceptInvitationAsNewUser: {
    security: PUBLIC,
    summary: 'Accept an invitation by creating the account (signs in)',
    description:
      'Creates the account of an invited address with a password, joins the inviting team with the invited role and signs in. For someone without an account; a signed-in user accepts with POST /auth/invitation/accept. Errors: `invalid_token` (used, expired, withdrawn or unknown invitation), `email_taken` (the address has an account: sign in, then accept), `invalid_request`.',
  },
  acceptInvitation: {
    security: SESSION_ONLY,
    summary: 'Accept an invitation while signed in (switches the session to that team)',
    description:
      'Only the invited address may accept: a session of another email gets 403 forbidden and the invitation stays open. Errors: `unauthenticated`, `forbidden` (another address, or a wrong x-csrf-token), `invalid_token` (used, expired, withdrawn or unknown).',
  },
  listSessions: {
    security: SESSION_ONLY,
    summary: 'The signed-in user’s sessions (extension)',
    description:
      'Extension for the dashboard’s account page: every unexpired session of the user, in any of their teams, newest first, each with when it began, its last use, when it ends, its team and whether it is this one. A session is named by the first 12 hex digits of its id’s SHA-256, never the id. Errors: `unauthenticated`.',
  },
  signOutOtherSessions: {
    security: SESSION_ONLY,
    summary: 'Sign out every other session of the user (extension)',
    description:
      'Extension: ends every session of the user except this one. Send the session’s x-csrf-token. Errors: `unauthenticated`, `forbidden` (a missing or wrong x-csrf-token).',
  },
  getEmailSetup: {
    security: PUBLIC,
    summary: 'Whether emails leave the server (extension)',
    description:
      'Extension: `smtp` is true when QUIRE_SMTP_URL is set. Without it emailed links (sign-in, reset, invitations) are written as .eml files to DATA_DIR/outbox on the server, and the dashboard says so where it would promise an email. It takes no input and needs no session. Errors: `internal_error` only.',
  },
} satisfies Record<string, SessionRouteDoc>;

/** What a session route validates: its body, if any, and its own answers. */
interface SessionRouteSchemas {
  body?: TSchema;
  response: Record<number, TSchema>;
}

/**
 * The options of the dashboard session route `operationId`, documented from DOCS. Session answers carry the
 * CSRF token and links: never cached (errors included). Each answers its own responses or the errors every
 * session route may give.
 */
export function sessionRoute<S extends SessionRouteSchemas>(operationId: keyof typeof DOCS, schema: S) {
  return {
    onSend: noStoreOnSend,
    schema: {
      tags: TAGS,
      operationId,
      ...DOCS[operationId],
      ...schema,
      response: { ...schema.response, ...ERRORS },
    },
  };
}
