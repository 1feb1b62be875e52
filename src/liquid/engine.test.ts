import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { rejectedAppError } from '../../test/helpers/app-error.js';
import { LiquidEngine } from './engine.js';

const FIXTURES = new URL('../../bench/fixtures/', import.meta.url);

const templateError = (work: Promise<unknown>) => rejectedAppError(work, 'template_render_error');

/** The pool (worker threads) keeps every behaviour of the in-thread renderer (renderer.test.ts). */
describe('LiquidEngine (worker pool)', () => {
  // One worker, so parse counts are exact (each worker keeps its own cache).
  const engine = new LiquidEngine({ threads: 1 });
  after(() => engine.close());

  it('renders the shared invoice fixture exactly, without warnings', async () => {
    const [source, data, expected] = await Promise.all([
      readFile(new URL('invoice.liquid.html', FIXTURES), 'utf8'),
      readFile(new URL('invoice.data.json', FIXTURES), 'utf8'),
      readFile(new URL('invoice.html', FIXTURES), 'utf8'),
    ]);
    const result = await engine.renderStored('invoice@1', source, JSON.parse(data));
    assert.equal(result.html, expected);
    assert.deepEqual(result.warnings, []);
  });

  it('reports missing variables, and errors with their code, message and position', async () => {
    const result = await engine.renderSource('{% for i in items %}{{ i.price }}{% endfor %}', {
      items: [{}],
    });
    assert.deepEqual(result.warnings, [{ code: 'missing_variable', path: 'items[].price' }]);
    const syntax = await templateError(engine.check('<p>\n{% if a %}open'));
    assert.deepEqual(syntax.details, { line: 2, column: 1 });
    assert.match(syntax.message, /not closed/);
    const include = await templateError(engine.check('a {% include "secret.liquid" %}'));
    assert.match(include.message, /"include" tag is not available/);
    const filter = await templateError(engine.renderSource('ok\n  {{ n | money: "EUR" }}', { n: 'SECRET' }));
    assert.deepEqual(filter.details, { line: 2, column: 3 });
    assert.ok(!filter.message.includes('SECRET'));
  });

  it('refuses a source over 500 KB before sending it to a worker', async () => {
    const err = await templateError(engine.renderSource('x'.repeat(500 * 1024 + 1), {}));
    assert.match(err.message, /larger than 500 KB/);
  });

  it('parses a stored version once per worker and re-parses a changed source under the same key', async () => {
    const before = engine.stats().parses;
    for (let n = 0; n < 3; n++) {
      assert.equal((await engine.renderStored('t@1', '<b>{{ n }}</b>', { n })).html, `<b>${n}</b>`);
    }
    assert.equal(engine.stats().parses - before, 1);
    assert.equal((await engine.renderStored('t@1', '<i>{{ n }}</i>', { n: 1 })).html, '<i>1</i>');
    assert.equal(engine.stats().parses - before, 2);
  });

  it('stops a parse that passes the time limit by terminating its worker, then keeps serving', async () => {
    const quick = new LiquidEngine({ threads: 1, renderMs: 200 });
    try {
      await quick.check('ok');
      const err = await templateError(quick.renderSource('{{a}}'.repeat(100_000), { a: 1 }));
      assert.match(err.message, /took longer than 1 second/);
      assert.equal(quick.stats().stopped, 1);
      assert.equal((await quick.renderSource('{{ a }}', { a: 'back' })).html, 'back');
    } finally {
      await quick.close();
    }
  });

  it('refuses work once closed', async () => {
    const closed = new LiquidEngine({ threads: 1 });
    await closed.close();
    await assert.rejects(closed.renderSource('x', {}), /closed/);
  });
});
