import { type TSchema, Type } from 'typebox';
import { withExamples } from '../http/openapi.js';
import { DateTime, named } from '../http/schemas.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { EMAIL_PATTERN_SOURCE } from './users.js';

/** Request and response schemas of the dashboard routes (OpenAPI tag `Dashboard`). */

export const TAGS = ['Dashboard'];

/** OpenAPI security of the dashboard routes: none (sign-in, links), the session cookie only, or either. */
type Security = Array<Record<string, string[]>>;
export const PUBLIC: Security = [];
export const SESSION_ONLY: Security = [{ session: [] }];
export const KEY_OR_SESSION: Security = [{ bearer: [] }, { session: [] }];

const TOKEN_EXAMPLE = 'cSPuiJ2fJ6nCy1Uu0m3OZq4DJbLtC7jF2dn2E8l5YQg';
const PASSWORD_EXAMPLE = 'a long passphrase';

const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: EMAIL_PATTERN_SOURCE,
  description: 'Email address',
});
/** Lengths are checked by the handler (checkPasswordRule) so the message says exactly what to fix. */
const Password = Type.String({
  maxLength: 1000,
  description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
});
const Token = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The token from the emailed or printed link',
});
export const RoleSchema = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
export const ModeSchema = Type.Union([Type.Literal('test'), Type.Literal('live')]);
export const UserIdSchema = Type.String({
  pattern: '^usr_[0-9a-f]{32}$',
  description: 'usr_ + 32 hex digits',
});

const strict = { additionalProperties: false } as const;

export const SessionSchema = named(
  'Session',
  Type.Object({
    user: Type.Object({
      id: Type.String(),
      email: Type.String(),
      email_verified: Type.Boolean(),
      has_password: Type.Boolean(),
    }),
    team: Type.Object({ id: Type.String(), name: Type.String(), plan: Type.String() }),
    role: RoleSchema,
    mode: ModeSchema,
    csrf_token: Type.String({ description: 'Send it as x-csrf-token on every POST, PUT, PATCH and DELETE' }),
    expires_at: DateTime,
  }),
);

export const SignInBody = named(
  'SignInRequest',
  Type.Object({ email: Email, password: Type.String({ maxLength: 1000 }) }, strict),
);
export const ModeBody = named('SessionModeRequest', Type.Object({ mode: ModeSchema }, strict));
export const TeamBody = named(
  'SessionTeamRequest',
  Type.Object({ team_id: Type.String({ maxLength: 100 }) }, strict),
);
export const TokenBody = named('TokenRequest', Type.Object({ token: Token }, strict));
export const PasswordBody = named(
  'SetPasswordRequest',
  Type.Object(
    {
      password: Password,
      current_password: Type.Optional(
        Type.String({ maxLength: 1000, description: 'Required when the user already has a password' }),
      ),
    },
    strict,
  ),
);
export const ResetBody = named('PasswordResetRequest', Type.Object({ email: Email }, strict));
export const TokenPasswordBody = named(
  'TokenPasswordRequest',
  Type.Object({ token: Token, password: Password }, strict),
);
export const VerifiedSchema = named('EmailVerified', Type.Object({ email_verified: Type.Literal(true) }));
export const EmptySchema = named('Accepted', Type.Object({}));

export const MemberSchema = named(
  'Member',
  Type.Object({ user_id: Type.String(), email: Type.String(), role: RoleSchema, created_at: DateTime }),
);
export const MemberRoleBody = named('MemberRoleRequest', Type.Object({ role: RoleSchema }, strict));
export const InvitationSchema = named(
  'Invitation',
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    created_at: DateTime,
    expires_at: DateTime,
  }),
);
export const InviteBody = named('InvitationRequest', Type.Object({ email: Email, role: RoleSchema }, strict));

/** The body schema with one example (documentation and Swagger UI's "Try it out"). */
function example<T extends TSchema>(schema: T, summary: string, value: Record<string, unknown>): T {
  return withExamples(schema, { example: { summary, value } });
}

/** Bodies as the routes use them: each with its example. */
export const Bodies = {
  signIn: example(SignInBody, 'Sign in', { email: 'ada@example.com', password: PASSWORD_EXAMPLE }),
  mode: example(ModeBody, 'Work in live mode', { mode: 'live' }),
  team: example(TeamBody, 'Switch team', { team_id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f' }),
  token: example(TokenBody, 'The token of the link', { token: TOKEN_EXAMPLE }),
  password: example(PasswordBody, 'Change the password', {
    password: 'a new long passphrase',
    current_password: PASSWORD_EXAMPLE,
  }),
  reset: example(ResetBody, 'Forgot the password', { email: 'ada@example.com' }),
  tokenPassword: example(TokenPasswordBody, 'Token and new password', {
    token: TOKEN_EXAMPLE,
    password: PASSWORD_EXAMPLE,
  }),
  memberRole: example(MemberRoleBody, 'Make an admin', { role: 'admin' }),
  invite: example(InviteBody, 'Invite a member', { email: 'grace@example.com', role: 'member' }),
};
