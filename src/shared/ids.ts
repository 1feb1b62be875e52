import { randomBytes, randomUUID } from 'node:crypto';

/** A v4 UUID, the id form of every resource. */
export function newId(): string {
  return randomUUID();
}

/** `req_` + 32 hex characters (spec: conventions, x-request-id). */
export function newRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

/** `evt_` + 32 hex characters (spec: event envelope). */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The spec's UUID form: 8-4-4-4-12 hex digits. */
export const UUID_REGEX_SOURCE = UUID_PATTERN.source;
