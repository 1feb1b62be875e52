import type { Generated } from 'kysely';
import type { KeyRole } from './api-keys.js';

export interface TeamsTable {
  id: string;
  name: string;
  plan: string;
  email: string | null;
  email_verified: Generated<number>;
  suspended: Generated<number>;
  created_at: string;
  /** `active`, `past_due`, `cancel_scheduled` or `none` (Free teams: none). Set by the operator. */
  subscription: Generated<string>;
  /** The team's cap on a period's overage cost; null = no cap of its own. */
  spending_cap_cents: number | null;
  /** 'YYYY-MM' of the period whose overage was already billed (no more overage in it). */
  overage_billed_period: string | null;
}

/** Which plan from when: one row per plan change (the first at team creation), for proration. */
export interface TeamPlanChangesTable {
  id: string;
  team_id: string;
  plan: string;
  changed_at: string;
}

/** The usage ledger: one row per counted live document, kept when retention deletes the document. */
export interface UsageRecordsTable {
  document_id: string;
  team_id: string;
  /** 'YYYY-MM' (UTC) of the period the document counts in. */
  period: string;
  created_at: string;
}

/**
 * Documents counted plus documents reserved and still rendering, per team and period: the plan check
 * reserves here with one conditional UPDATE, so concurrent requests cannot pass the limit together.
 */
export interface UsageCountersTable {
  team_id: string;
  period: string;
  reserved: number;
}

/** Reservations one process holds that are not yet durable (a document row or a ledger row). */
export interface UsageHoldsTable {
  holder: string;
  team_id: string;
  period: string;
  count: number;
  /** Ms since the epoch; renewed by the holder's heartbeat (PostgreSQL). */
  expires_at: number;
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
  /** `admin` or `member` (migration 0015: keys made before it are admin). */
  role: Generated<KeyRole>;
  /** Who made the key: a user (dashboard session) or another key; both null when the operator did. */
  created_by_user_id: string | null;
  created_by_key_id: string | null;
}

export interface AccountsTables {
  teams: TeamsTable;
  api_keys: ApiKeysTable;
  team_plan_changes: TeamPlanChangesTable;
  usage_records: UsageRecordsTable;
  usage_counters: UsageCountersTable;
  usage_holds: UsageHoldsTable;
}
