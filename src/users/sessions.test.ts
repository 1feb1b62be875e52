import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { hasRole, requireRole } from '../accounts/auth-context.js';
import { checkCsrf, sameText } from '../accounts/auth-hook.js';
import { isAppError } from '../shared/errors.js';
import { checkPasswordRule } from './passwords.js';
import { csrfTokenFor, sessionIdOf } from './sessions.js';
import { isEmailAddress, normalizeEmail } from './users.js';

/** Pure parts of sessions, CSRF, roles and input rules (the HTTP behaviour is in test/integration/users). */

const request = (fields: Partial<{ method: string; headers: Record<string, string>; auth: unknown }>) =>
  ({ method: 'GET', headers: {}, ...fields }) as unknown as FastifyRequest;

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return isAppError(err) ? err.code : 'not an AppError';
  }
};

describe('session cookie and CSRF token', () => {
  it('reads quire_session among other cookies and ignores look-alikes', () => {
    const idOf = (cookie?: string) => sessionIdOf(request(cookie ? { headers: { cookie } } : {}), false);
    assert.equal(idOf('a=1; quire_session=abc_-9; b=2'), 'abc_-9');
    assert.equal(idOf('xquire_session=abc'), null);
    assert.equal(idOf('quire_session='), null);
    assert.equal(idOf(), null);
    assert.equal(idOf('__Host-quire_session=abc'), null, 'the https name is not read over http');
  });

  it('reads only __Host-quire_session over https', () => {
    const idOf = (cookie: string) => sessionIdOf(request({ headers: { cookie } }), true);
    assert.equal(idOf('quire_session=plain; __Host-quire_session=hosted'), 'hosted');
    assert.equal(idOf('quire_session=plain'), null, 'a cookie a sibling domain could plant is ignored');
  });

  it('refuses several cookies of the session name instead of taking the first', () => {
    const codeWith = (cookie: string, https: boolean) =>
      codeOf(() => sessionIdOf(request({ headers: { cookie } }), https));
    assert.equal(codeWith('quire_session=a; other=1; quire_session=b', false), 'invalid_request');
    assert.equal(codeWith('__Host-quire_session=a; __Host-quire_session=a', true), 'invalid_request');
    assert.equal(codeWith('__Host-quire_session=a; quire_session=b', true), null);
  });

  it('derives a stable token per session id that differs between sessions', () => {
    assert.equal(csrfTokenFor('one'), csrfTokenFor('one'));
    assert.notEqual(csrfTokenFor('one'), csrfTokenFor('two'));
    assert.ok(!csrfTokenFor('one').includes('one'));
  });

  it('checks the header only on state-changing methods', () => {
    const token = csrfTokenFor('s');
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      assert.equal(
        codeOf(() => checkCsrf(request({ method }), token)),
        null,
        method,
      );
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      assert.equal(
        codeOf(() => checkCsrf(request({ method }), token)),
        'forbidden',
        method,
      );
      assert.equal(
        codeOf(() => checkCsrf(request({ method, headers: { 'x-csrf-token': `${token}x` } }), token)),
        'forbidden',
      );
      assert.equal(
        codeOf(() => checkCsrf(request({ method, headers: { 'x-csrf-token': token } }), token)),
        null,
      );
    }
    assert.equal(sameText('a', 'a'), true);
    assert.equal(sameText('a', 'ab'), false);
  });
});

describe('roles and input rules', () => {
  it('orders owner > admin > member and names the role needed', () => {
    assert.ok(hasRole('owner', 'admin') && hasRole('admin', 'admin') && !hasRole('member', 'admin'));
    assert.ok(!hasRole('admin', 'owner'));
    const asMember = request({ auth: { role: 'member' } });
    try {
      requireRole(asMember, 'admin');
      assert.fail('members cannot manage');
    } catch (err) {
      assert.ok(isAppError(err) && err.code === 'forbidden');
      assert.match(err.message, /admin or owner role/);
    }
    assert.equal(
      codeOf(() => requireRole(request({ auth: { role: 'owner' } }), 'owner')),
      null,
    );
  });

  it('accepts passwords of 10 to 200 characters (counted as characters, not bytes)', () => {
    assert.equal(
      codeOf(() => checkPasswordRule('x'.repeat(9))),
      'invalid_request',
    );
    assert.equal(
      codeOf(() => checkPasswordRule('x'.repeat(10))),
      null,
    );
    assert.equal(
      codeOf(() => checkPasswordRule('💥'.repeat(200))),
      null,
    );
    assert.equal(
      codeOf(() => checkPasswordRule('x'.repeat(201))),
      'invalid_request',
    );
  });

  it('normalizes emails to one account per address', () => {
    assert.equal(normalizeEmail('  Ada@Example.COM '), 'ada@example.com');
    assert.ok(isEmailAddress('admin@localhost'));
    assert.ok(!isEmailAddress('no at sign') && !isEmailAddress('a b@c.d') && !isEmailAddress('@x'));
  });
});
