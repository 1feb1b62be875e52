import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { referenceLiquid } from '../../test/helpers/reference-liquid.js';
import { LiquidRenderer } from './renderer.js';

type Case = [name: string, source: string, data: Record<string, unknown>, paths: string[]];

const CASES: Case[] = [
  ['a printed missing variable', '{{ x }}', {}, ['x']],
  ['a variable sent as null', '{{ x }}', { x: null }, []],
  ['false and "" are values', '{{ x }}{{ y }}', { x: false, y: '' }, []],
  ['tested with if, printed inside', '{% if x %}{{ x }}{% endif %}', {}, []],
  ['tested with unless', '{% unless x %}none{% endunless %}', {}, []],
  ['tested with case', '{% case x %}{% when 1 %}one{% else %}other{% endcase %}', {}, []],
  ['a dynamic key inside an if test', '{% if a[b] %}yes{% endif %}', { a: {} }, []],
  ['printed with a leading default', '{{ x | default: "n/a" }}', {}, []],
  ['printed with a later default', '{{ x | upcase | default: "n/a" }}', {}, []],
  [
    'a loop item field names the list',
    '{% for item in items %}{{ item.discount }}{% endfor %}',
    { items: [{ discount: 1 }, {}] },
    ['items[].discount'],
  ],
  ['duplicates are reported once', '{{ x }}{{ x }}{% for i in (1..3) %}{{ x }}{% endfor %}', {}, ['x']],
  ['a missing nested object', '{{ customer.address.street }}', { customer: {} }, ['customer.address.street']],
  ['a null parent stops the chain', '{{ customer.address.street }}', { customer: { address: null } }, []],
  ['a field of a string', '{{ a.b.c }}', { a: 'text' }, ['a.b.c']],
  ['under a filter', '{{ x | plus: 1 }}', {}, ['x']],
  ['a filter argument', '{{ 1 | plus: y }}', {}, ['y']],
  ['echo', '{% echo x | upcase %}', {}, ['x']],
  ['echo inside liquid', '{% liquid\necho x\n%}', {}, ['x']],
  ['whitespace control', 'a {{- x -}} b', {}, ['x']],
  ['a loop over a missing list', '{% for i in missing %}a{% else %}empty{% endfor %}', {}, ['missing']],
  ['tablerow over a missing list', '{% tablerow i in t %}{{ i }}{% endtablerow %}', {}, ['t']],
  [
    'a loop modifier is not printed',
    '{% for i in items limit: n %}{{ i }}{% endfor %}',
    { items: [1, 2] },
    [],
  ],
  [
    'nested loops',
    '{% for l in order.lines %}{% for t in l.taxes %}{{ t.rate }}{% endfor %}{% endfor %}',
    { order: { lines: [{ taxes: [{}] }] } },
    ['order.lines[].taxes[].rate'],
  ],
  [
    'an assigned alias',
    '{% assign c = customer %}{{ c.nick }}',
    { customer: { name: 'A' } },
    ['customer.nick'],
  ],
  ['first of a list', '{{ items.first.discount }}', { items: [{ a: 1 }] }, ['items[].discount']],
  ['an index into a list', '{{ items[0].discount }}', { items: [{ a: 1 }] }, ['items[].discount']],
  ['an index past the end', '{{ items[3].name }}', { items: [] }, ['items[].name']],
  ['a quoted key', '{{ data["first name"] }}', { data: {} }, ['data["first name"]']],
  [
    'a dynamic key is written as in the template',
    '{{ customer[field] }}',
    { customer: {}, field: 'SECRET' },
    ['customer[field]'],
  ],
  [
    'dictionary keys from data are not repeated',
    '{% for p in people %}{{ p[1].email }}{% endfor %}',
    { people: { 'Alice Smith': { name: 'A' } } },
    ['people[].email'],
  ],
  ['inside a taken branch', '{% if show %}{{ missing }}{% endif %}', { show: true }, ['missing']],
  ['inside elsif', '{% if x == 1 %}a{% elsif y %}{{ z }}{% endif %}', { y: true }, ['z']],
  ['inside capture', '{% capture s %}{{ m }}{% endcapture %}[{{ s }}]', {}, ['m']],
  ['an untaken branch', '{% if show %}{{ missing }}{% endif %}', { show: false }, []],
  ['cycle with a missing value runs once', '{% cycle a, "b" %}{% cycle a, "b" %}', {}, []],
  ['a variable assigned from a missing one', '{% assign x = missing %}{{ x }}', {}, ['x']],
  ['a range alias', '{% for i in (1..2) %}{{ i.x }}{% endfor %}', {}, ['i.x']],
  ['size of a missing list', '{{ items.size }}', {}, ['items.size']],
  ['in first-seen order', '{{ b }}{{ a }}{{ b }}', {}, ['b', 'a']],
];

describe('missing_variable warnings', () => {
  const engine = new LiquidRenderer();
  const reference = referenceLiquid();

  for (const [name, source, data, paths] of CASES) {
    it(`${name}: ${source.replace(/\n/g, ' ')}`, () => {
      const result = engine.renderSource(source, structuredClone(data));
      assert.deepEqual(
        result.warnings,
        paths.map((path) => ({ code: 'missing_variable', path })),
      );
      assert.equal(result.html, reference.parseAndRenderSync(source, structuredClone(data)));
    });
  }

  it('keeps at most 20, the first ones', () => {
    const source = Array.from({ length: 25 }, (_, i) => `{{ v${i} }}`).join('');
    const { warnings } = engine.renderSource(source, {});
    assert.equal(warnings.length, 20);
    assert.deepEqual(warnings[19], { code: 'missing_variable', path: 'v19' });
  });

  it('stays exact after its miss budgets run out (a long loop, many misses)', () => {
    const items = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? { n: i } : { n: i, d: i }));
    const source = '{% for item in items %}{{ item.d }}{{ item.e.f }};{% endfor %}{{ after }}';
    const result = engine.renderSource(source, structuredClone({ items }));
    assert.equal(result.html, reference.parseAndRenderSync(source, structuredClone({ items })));
    assert.deepEqual(
      result.warnings.map((w) => (w.code === 'missing_variable' ? w.path : '')),
      ['items[].d', 'items[].e.f', 'after'],
    );
  });

  it('never puts data values or data-only keys in paths', () => {
    const source = '{% for p in people %}{{ p[1][p[0]] }}{{ p[1].email }}{% endfor %}{{ lookup[key].x }}';
    const data = {
      people: { 'Jane Secret': { name: 'J' } },
      key: 'hidden-key',
      lookup: { 'hidden-key': {} },
    };
    const { warnings } = engine.renderSource(source, data);
    const text = JSON.stringify(warnings);
    assert.ok(warnings.length >= 2, text);
    for (const secret of ['Jane', 'Secret', 'hidden']) assert.ok(!text.includes(secret), text);
  });

  it('gives the same HTML as a normal render of the invoice with data removed', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(
      new URL('../../bench/fixtures/invoice.liquid.html', import.meta.url),
      'utf8',
    );
    const data = { invoice: { number: 'X-1' }, items: [{ name: 'A' }, { quantity: 2, unit_price: '1.5' }] };
    const result = engine.renderSource(source, structuredClone(data));
    assert.equal(result.html, reference.parseAndRenderSync(source, structuredClone(data)));
    const paths = result.warnings.map((w) => (w.code === 'missing_variable' ? w.path : ''));
    assert.ok(paths.includes('seller.name'));
    assert.ok(paths.includes('items[].quantity'));
    assert.ok(!paths.includes('seller.brand_color'), 'printed with default');
    assert.ok(!paths.includes('invoice.order_ref'), 'only tested with if');
  });
});
