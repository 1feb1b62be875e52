import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { isAppError } from '../shared/errors.js';
import { requireManager, requireRole, requireSessionRole } from './auth-context.js';

type Caller = { mode: 'live' | 'test'; role: 'owner' | 'admin' | 'member'; key: boolean };

const request = ({ mode, role, key }: Caller) =>
  ({
    auth: { mode, role, key: key ? { id: 'k1', mode, role } : null, session: key ? null : { userId: 'u1' } },
  }) as unknown as FastifyRequest;

/** The refusal's message, or null when the caller passes. */
const refusal = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    assert.ok(isAppError(err) && err.code === 'forbidden', String(err));
    return err.message;
  }
};

describe('who may manage', () => {
  it('lets only admin live keys and admin or owner sessions manage keys, members and invitations', () => {
    const callers: Array<[Caller, RegExp | null]> = [
      [{ mode: 'live', role: 'admin', key: true }, null],
      [{ mode: 'test', role: 'admin', key: true }, /A test key cannot manage keys/],
      [{ mode: 'live', role: 'member', key: true }, /admin live key.*this key's role is member/],
      [{ mode: 'test', role: 'member', key: true }, /A test key cannot/],
      [{ mode: 'live', role: 'owner', key: false }, null],
      [{ mode: 'test', role: 'admin', key: false }, null],
      [{ mode: 'live', role: 'member', key: false }, /admin or owner role.*your role is member/],
    ];
    for (const [caller, expected] of callers) {
      const message = refusal(() => requireManager(request(caller), 'manage keys'));
      if (expected) assert.match(message ?? 'passed', expected, JSON.stringify(caller));
      else assert.equal(message, null, JSON.stringify(caller));
    }
  });

  it('never gives a key owner powers, and says so', () => {
    assert.match(
      refusal(() => requireRole(request({ mode: 'live', role: 'admin', key: true }), 'owner')) ?? '',
      /owner signed into the dashboard; an API key never has the owner role/,
    );
    assert.equal(
      refusal(() => requireRole(request({ mode: 'test', role: 'owner', key: false }), 'owner')),
      null,
    );
  });

  it('lets any key manage its own mode’s webhooks; sessions need the admin role', () => {
    assert.equal(
      refusal(() => requireSessionRole(request({ mode: 'test', role: 'member', key: true }), 'admin')),
      null,
    );
    assert.match(
      refusal(() => requireSessionRole(request({ mode: 'live', role: 'member', key: false }), 'admin')) ?? '',
      /admin or owner role/,
    );
  });
});
