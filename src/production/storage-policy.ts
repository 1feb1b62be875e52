import { type Plan, TEST_STORAGE_BYTES } from '../accounts/index.js';
import { AppError } from '../shared/errors.js';
import type { Caller } from './ports.js';

/** Bytes of stored files, summed by the documents capability over its own rows. */
export interface StorageLedger {
  storedBytes(teamId: string, test: boolean): Promise<number>;
}

/**
 * How a produced file is kept (spec: POST /pdf responses): `required` for url responses and background
 * PDFs (storage_limit_reached when the quota is full), `if_room` for live binary responses (still returned
 * when the quota is full), `never` for test binary responses, previews and thumbnails.
 */
export type StoragePolicy = 'required' | 'if_room' | 'never';

const DAY_MS = 86_400_000;

/** Whether a file of `bytes` is stored under the policy; throws storage_limit_reached for `required`. */
export async function decideStorage(
  ledger: StorageLedger,
  caller: Caller,
  input: { test: boolean; policy: StoragePolicy; bytes: number },
): Promise<boolean> {
  if (input.policy === 'never') return false;
  const used = await ledger.storedBytes(caller.teamId, input.test);
  const cap = input.test ? TEST_STORAGE_BYTES : caller.plan.storage_bytes;
  if (used + input.bytes <= cap) return true;
  if (input.policy === 'if_room') return false;
  throw new AppError(
    'storage_limit_reached',
    input.test ? 'Test PDFs stored for this team reached 200 MB.' : 'Stored PDFs reached the plan limit.',
    { scope: input.test ? 'test' : 'plan' },
  );
}

/** A cheap early refusal when the file must be stored and storage is already full, before any rendering. */
export async function assertStorageAvailable(ledger: StorageLedger, caller: Caller, test: boolean) {
  await decideStorage(ledger, caller, { test, policy: 'required', bytes: 0 });
}

/** Test documents are kept one day; live ones for the plan's retention. */
export function expiryFor(now: Date, plan: Plan, test: boolean): Date {
  return new Date(now.getTime() + (test ? 1 : plan.retention_days) * DAY_MS);
}
