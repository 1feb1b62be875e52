import type { Generated } from 'kysely';

/** A person who signs into the dashboard. The email is stored lower-cased (one account per address). */
export interface UsersTable {
  id: string;
  email: string;
  /** argon2id PHC string; null until the person sets a password (sign-in link, first run). */
  password_hash: string | null;
  email_verified: Generated<number>;
  created_at: string;
  /** First sign-in (a session created); null while the user never signed in. */
  signed_in_at: string | null;
}

/** A user's role in a team: `owner`, `admin` or `member`. */
export interface MembershipsTable {
  team_id: string;
  user_id: string;
  role: string;
  created_at: string;
  /** The mode last chosen in this team; the next session starts in it (null: never switched). */
  last_mode: 'live' | 'test' | null;
}

/** A dashboard session. Only the SHA-256 of the cookie's id is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  team_id: string;
  mode: 'live' | 'test';
  created_at: string;
  /** Last use: the idle expiry slides from here. */
  last_seen_at: string;
}

/**
 * Single-use emailed or printed tokens: `sign_in` (CLI, first run), `reset`, `verify`, `invite`. Only the
 * SHA-256 of the token is stored. Invitations carry the email, team and role they grant.
 */
export interface UserTokensTable {
  id: string;
  token_hash: string;
  purpose: string;
  user_id: string | null;
  team_id: string | null;
  email: string | null;
  role: string | null;
  created_at: string;
  expires_at: string;
  /** Set when the token is used, and when an invitation is withdrawn (the row still counts in the quota). */
  used_at: string | null;
  /** Who made an invitation (migration 0015): a user or an API key; both null for other tokens. */
  created_by_user_id: string | null;
  created_by_key_id: string | null;
}

export interface UsersTables {
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
}
