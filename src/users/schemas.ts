import { Type } from 'typebox';
import { DateTime, named } from '../http/schemas.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { EMAIL_PATTERN_SOURCE } from './users.js';

/** Request and response schemas of the dashboard routes (OpenAPI tag `Dashboard`). */

export const TAGS = ['Dashboard'];

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
