import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutPasswords } from '../../web/src/drafts.js';

/** What the editor's unsaved draft keeps in localStorage (dashboard, pure logic): never typed passwords. */
describe('withoutPasswords', () => {
  it('leaves out a protect with typed passwords, keeping the other settings', () => {
    const settings = {
      format: 'A4',
      protect: { owner_password: 'owner secret 1', user_password: 'open me', permissions: ['print'] },
    };
    const kept = withoutPasswords(settings);
    assert.deepEqual(kept, { format: 'A4' });
    assert.doesNotMatch(JSON.stringify(kept), /secret|open me/);
  });

  it('leaves out a protect with only an owner password typed', () => {
    assert.deepEqual(withoutPasswords({ protect: { owner_password: 'x'.repeat(12) } }), {});
  });

  it('keeps a protect as the server shows it (no passwords in it) and settings without protect', () => {
    const shown = { protect: { owner_password_set: true, user_password_set: false, permissions: [] } };
    assert.deepEqual(withoutPasswords(shown), shown);
    assert.deepEqual(withoutPasswords({ format: 'Letter' }), { format: 'Letter' });
    assert.deepEqual(withoutPasswords({ protect: null }), { protect: null });
  });
});
