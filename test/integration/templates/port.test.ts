import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuthContext } from '../../../src/accounts/auth-context.js';
import { loadPlans } from '../../../src/accounts/plans.js';
import { createTeam, type Team } from '../../../src/accounts/teams.js';
import { PROTECT_PASSWORDS_PURPOSE } from '../../../src/finishing/index.js';
import { LiquidEngine } from '../../../src/liquid/index.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { AppError } from '../../../src/shared/errors.js';
import { FsBlobStore } from '../../../src/storage/blob-store.js';
import type { Db } from '../../../src/storage/db.js';
import {
  createTemplate,
  deleteTemplate,
  pinTemplate,
  type TemplateStoreDeps,
  updateTemplate,
} from '../../../src/templates/service.js';
import { createTemplatePort } from '../../../src/templates/template-port.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { openTestDatabase } from '../../helpers/database.js';

/** The TemplatePort POST /pdf uses, on a real SQLite database and the real Liquid engine. */
describe('templates: the POST /pdf template port', () => {
  const clock = new ManualClock();
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-template-port-'));
  let db: Db;
  let deps: TemplateStoreDeps;
  // One worker thread, so "parsed once" means once (each worker keeps its own cache).
  const engine = new LiquidEngine({ threads: 1 });
  const parses = () => engine.stats().parses;
  let teams: Team[];
  before(async () => {
    db = await openTestDatabase(dir);
    deps = {
      db,
      clock,
      blobs: new FsBlobStore(path.join(dir, 'blobs')),
      engine,
      passwords: createSecretBox(Buffer.alloc(32, 7), PROTECT_PASSWORDS_PURPOSE),
    };
    teams = [
      await createTeam(db, clock, { name: 'a', plan: 'scale' }),
      await createTeam(db, clock, { name: 'b', plan: 'scale' }),
    ];
  });
  after(async () => {
    await engine.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const auth = (team: Team) =>
    ({ team, plan: loadPlans(null).scale, mode: 'live' }) as unknown as AuthContext;
  const code = async (work: Promise<unknown>) =>
    work.then(
      () => 'ok',
      (err: unknown) => (err instanceof AppError ? err.code : String(err)),
    );

  it('parses each version once and renders it from the cache afterwards', async () => {
    const [a] = teams as [Team];
    const port = createTemplatePort(deps);
    const { template } = await createTemplate(deps, auth(a), {
      name: 'p',
      html: '<b>{{ n }}</b>',
      sample_data: { n: 1 },
    });
    assert.equal(parses(), 1, 'parsed on save');
    for (let i = 0; i < 5; i++) {
      const resolved = await port.resolve(a.id, template.id, undefined);
      assert.equal((await resolved.render({ n: i })).html, `<b>${i}</b>`);
    }
    assert.equal(parses(), 2, 'one more parse for the render cache, none per render');
    await updateTemplate(deps, a.id, template.id, { html: '<i>{{ n }}</i>' });
    const v2 = await port.resolve(a.id, template.id, undefined);
    assert.equal(v2.version, 2);
    assert.equal((await v2.render({ n: 7 })).html, '<i>7</i>');
    assert.equal((await (await port.resolve(a.id, template.id, 1)).render({ n: 7 })).html, '<b>7</b>');
    assert.equal(parses(), 4, 'save of v2, then v2 once; v1 is still cached');
    await port.resolve(a.id, template.id, 1).then((t) => t.render({}));
    assert.equal(parses(), 4);
  });

  it('uses template_version, else the pinned version, else the current one; refuses what it cannot see', async () => {
    const [a, b] = teams as [Team, Team];
    const port = createTemplatePort(deps);
    const { template } = await createTemplate(deps, auth(a), {
      name: 'q',
      html: 'one',
      settings: { mode: 'fast' },
    });
    await updateTemplate(deps, a.id, template.id, { html: 'two' });
    assert.equal((await port.resolve(a.id, template.id, undefined)).version, 2);
    await pinTemplate(deps, a.id, template.id, 1);
    const pinned = await port.resolve(a.id, template.id, undefined);
    assert.deepEqual([pinned.version, pinned.name, pinned.settings], [1, 'q', { mode: 'fast' }]);
    assert.equal((await port.resolve(a.id, template.id, 2)).version, 2);
    assert.equal(await code(port.resolve(a.id, template.id, 3)), 'template_not_found');
    assert.equal(await code(port.resolve(b.id, template.id, undefined)), 'template_not_found');
    assert.equal(
      await code(port.resolve(a.id, '00000000-0000-4000-8000-000000000001', undefined)),
      'template_not_found',
    );
    await deleteTemplate(deps, a.id, template.id);
    assert.equal(await code(port.resolve(a.id, template.id, 1)), 'template_not_found');
  });
  it("stores a template's protect passwords sealed, opens them for renders only, and keeps them on a shown PUT", async () => {
    const [a] = teams as [Team];
    const port = createTemplatePort(deps);
    const protect = {
      owner_password: 'port-owner-pw',
      user_password: 'port-user-pw',
      permissions: { copy: false },
    };
    const { template, version } = await createTemplate(deps, auth(a), {
      name: 'locked',
      html: 'x',
      settings: { protect },
    });
    const row = async (n: number) =>
      (
        await db
          .selectFrom('template_versions')
          .select('settings_json')
          .where('template_id', '=', template.id)
          .where('version', '=', n)
          .executeTakeFirstOrThrow()
      ).settings_json;
    for (const text of [version.settings_json, await row(1)]) {
      assert.ok(!text.includes('port-owner-pw') && !text.includes('port-user-pw'), text);
      assert.match(text, /"sealed_passwords":"v1:/);
    }
    assert.deepEqual((await port.resolve(a.id, template.id, undefined)).settings, { protect });
    const shown = { permissions: { copy: true }, owner_password_set: true as const, user_password_set: true };
    await updateTemplate(deps, a.id, template.id, { settings: { protect: shown, margin: '1cm' } });
    assert.deepEqual((await port.resolve(a.id, template.id, 2)).settings, {
      margin: '1cm',
      protect: { ...protect, permissions: { copy: true } },
    });
    assert.ok(!(await row(2)).includes('port-owner-pw'));
    // A shown protect on a template without stored passwords names the field to send.
    const refused = await createTemplate(deps, auth(a), {
      name: 'n',
      html: 'x',
      settings: { protect: shown },
    }).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(refused instanceof AppError);
    assert.equal(refused.code, 'invalid_request');
    assert.deepEqual(refused.details, { field: 'settings/protect/owner_password' });
  });
});
