import { type TSchema, Type } from 'typebox';
import { ApiKeySchema } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, ErrorResponse, named } from '../http/schemas.js';
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

/** Extension (members are not in docs/SPEC.md): the keys a removed or demoted member leaves behind. */
const REVOKE_KEYS_TEXT =
  'Extension: true revokes, in the same transaction, the active API keys the member made (directly or through a key they made); they are listed in `created_api_keys`. Left out or false, those keys keep working with their own role.';
const RevokeKeys = Type.Optional(Type.Boolean({ description: REVOKE_KEYS_TEXT }));

export const MemberRoleBody = named(
  'MemberRoleRequest',
  Type.Object({ role: RoleSchema, revoke_keys: RevokeKeys }, strict),
);
export const RemoveMemberQuery = Type.Object({ revoke_keys: RevokeKeys }, strict);

/** A member after a role change, or as it was before its removal, with the API keys it made. */
export const MemberChangeSchema = named(
  'MemberChange',
  Type.Object({
    ...MemberSchema.properties,
    created_api_keys: Type.Array(ApiKeySchema, {
      description:
        'Extension: the API keys the member made (directly or through a key they made) that were active before this request, never their secrets. `revoked_at` is set on those this request revoked (`revoke_keys`); null ones keep working.',
    }),
  }),
);
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

/** The errors of the member and invitation routes (member-routes.ts, invitation-routes.ts). */
export const MEMBER_ERRORS = { ...COMMON_ERRORS, 404: ErrorResponse, 409: ErrorResponse };
/** Who manages members and invitations (accounts' requireManager), as their descriptions say it. */
export const MANAGERS =
  'Needs an admin or owner session or an admin live key; a test key, a member key or a member’s session gets 403 forbidden.';

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
  memberRole: withExamples(MemberRoleBody, {
    promote: { summary: 'Make an admin', value: { role: 'admin' } },
    demote: {
      summary: 'Make a member and revoke the API keys they made',
      value: { role: 'member', revoke_keys: true },
    },
  }),
  invite: example(InviteBody, 'Invite a member', { email: 'grace@example.com', role: 'member' }),
};
