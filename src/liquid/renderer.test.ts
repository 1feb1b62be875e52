import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { thrownAppError } from '../../test/helpers/app-error.js';
import { LiquidRenderer } from './renderer.js';

const FIXTURES = new URL('../../bench/fixtures/', import.meta.url);

const templateError = (fn: () => unknown) => thrownAppError(fn, 'template_render_error');

describe('LiquidRenderer.parse', () => {
  const engine = new LiquidRenderer();

  const SYNTAX: Array<[string, number, number, string]> = [
    ['<p>\n{% if a %}open', 2, 1, 'not closed'],
    ['{{ x | nosuch }}', 1, 1, 'nosuch'],
    ['ok\n\n   {% endfor %}', 3, 4, 'endfor'],
    ['{% for %}{% endfor %}', 1, 1, 'for'],
    ['{{ x ', 1, 1, 'not closed'],
    ['{% nosuchtag %}', 1, 1, 'nosuchtag'],
    ['a {% include "secret.liquid" %}', 1, 3, 'include'],
    ['{% render "x" %}', 1, 1, 'render'],
    ['{% layout "x" %}body', 1, 1, 'layout'],
  ];
  for (const [source, line, column, word] of SYNTAX) {
    it(`${JSON.stringify(source)} → template_render_error at ${line}:${column}`, () => {
      const err = templateError(() => engine.parse(source));
      assert.deepEqual(err.details, { line, column });
      assert.ok(err.message.includes(word), err.message);
      assert.ok(!err.message.includes('line:'), 'the position is in details only');
    });
  }

  it('accepts 500 KB and refuses one byte more (UTF-8 bytes, not characters)', () => {
    const limit = 500 * 1024;
    assert.ok(engine.parse('x'.repeat(limit)));
    const err = templateError(() => engine.parse('x'.repeat(limit + 1)));
    assert.match(err.message, /500 KB/);
    templateError(() => engine.parse('ü'.repeat(limit / 2 + 1)));
  });
});

describe('LiquidRenderer.render limits', () => {
  it('stops a render over the time limit (default 1 s) with template_render_error', () => {
    const engine = new LiquidRenderer();
    const loop = '{% for a in (1..5000) %}{% for b in (1..5000) %}{% endfor %}{% endfor %}';
    const err = templateError(() => engine.renderSource(loop, {}));
    assert.match(err.message, /longer than 1 second/);
  });

  it('stops allocation over 64 MB (doubling strings, huge ranges)', () => {
    const engine = new LiquidRenderer();
    const doubling =
      '{% assign s = "0123456789" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s.size }}';
    assert.match(templateError(() => engine.renderSource(doubling, {})).message, /more than 64 MB/);
    const range = '{% for i in (1..100000000) %}{% endfor %}';
    assert.match(templateError(() => engine.renderSource(range, {})).message, /more than 64 MB/);
  });

  it('stops a render whose HTML passes 64 MB', () => {
    const engine = new LiquidRenderer();
    const big = 'x'.repeat(1024 * 1024);
    for (const source of [
      '{% for i in (1..200) %}{{ big }}{% endfor %}',
      `{% for i in (1..200) %}${'y'.repeat(400_000)}{% endfor %}`,
    ]) {
      assert.match(templateError(() => engine.renderSource(source, { big })).message, /more than 64 MB/);
    }
  });

  it('reports a failing filter with its position and without the data', () => {
    const engine = new LiquidRenderer();
    const err = templateError(() => engine.renderSource('ok\n  {{ n | money: "EUR" }}', { n: 'SECRET-123' }));
    assert.deepEqual(err.details, { line: 2, column: 3 });
    assert.ok(!err.message.includes('SECRET'));
  });

  it('never reads inherited properties or prototypes', () => {
    const engine = new LiquidRenderer();
    const data = JSON.parse('{"o":{"__proto__":{"evil":1}}}') as Record<string, unknown>;
    const { html } = engine.renderSource(
      '[{{ o.constructor }}][{{ o.toString }}][{{ o.evil }}][{{ o.__proto__.evil }}]',
      data,
    );
    assert.equal(html, '[][][][1]');
  });
});

describe('LiquidRenderer.getOrParse', () => {
  it('parses a version once, re-parses a changed source, and evicts the least recently used', () => {
    const engine = new LiquidRenderer({ cacheSize: 2 });
    const a1 = engine.getOrParse('t1@1', '{{ a }}');
    assert.equal(engine.getOrParse('t1@1', '{{ a }}'), a1);
    assert.notEqual(engine.getOrParse('t1@1', '{{ a }}!'), a1);
    const b = engine.getOrParse('t2@1', 'B');
    engine.getOrParse('t1@1', '{{ a }}!');
    engine.getOrParse('t3@1', 'C');
    assert.notEqual(engine.getOrParse('t2@1', 'B'), b, 't2 was the least recently used');
    assert.equal(engine.render(engine.getOrParse('t1@1', '{{ a }}!'), { a: 1 }).html, '1!');
  });

  it('caches nothing for a template that fails to parse', () => {
    const engine = new LiquidRenderer();
    templateError(() => engine.getOrParse('bad@1', '{% if %}'));
    templateError(() => engine.getOrParse('bad@1', '{% if %}'));
  });
});

describe('the shared invoice fixture', () => {
  it('renders invoice.liquid.html with invoice.data.json to exactly invoice.html, without warnings', async () => {
    const [source, data, expected] = await Promise.all([
      readFile(new URL('invoice.liquid.html', FIXTURES), 'utf8'),
      readFile(new URL('invoice.data.json', FIXTURES), 'utf8'),
      readFile(new URL('invoice.html', FIXTURES), 'utf8'),
    ]);
    const engine = new LiquidRenderer();
    const template = engine.getOrParse('invoice@1', source);
    const result = engine.render(template, JSON.parse(data));
    assert.deepEqual(result.warnings, []);
    assert.equal(result.html, expected);
    const again = engine.render(template, JSON.parse(data));
    assert.equal(again.html, expected, 'a cached template renders the same twice');
  });
});
