import type { Generated } from 'kysely';

export interface TeamsTable {
  id: string;
  name: string;
  plan: string;
  email: string | null;
  email_verified: Generated<number>;
  suspended: Generated<number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  team_id: string;
  name: string;
  mode: 'live' | 'test';
  /** The first characters of the key, shown to people to recognise it. */
  prefix: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface AccountsTables {
  teams: TeamsTable;
  api_keys: ApiKeysTable;
}
