import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thrownAppError } from '../../test/helpers/app-error.js';
import { AppError } from '../shared/errors.js';
import { LiquidRenderer } from './renderer.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const engine = new LiquidRenderer();

function render(source: string, data: Record<string, unknown> = {}): string {
  return engine.renderSource(source, data).html;
}

const renderError = (source: string, data: Record<string, unknown> = {}) =>
  thrownAppError(() => engine.renderSource(source, data), 'template_render_error', source);

const OUTPUTS: Array<[string, Record<string, unknown>, string]> = [
  ['{{ 1234.5 | money: "EUR", "de-DE" }}', {}, `1.234,50${NBSP}€`],
  ['{{ 1234.5 | money: "EUR", "en-US" }}', {}, '€1,234.50'],
  ['{{ a | money: "EUR" }}', { a: '1234.50' }, '€1,234.50'],
  ['{{ a | money: "eur" }}', { a: '-0.5' }, '-€0.50'],
  ['{{ a | money: "USD" }}', { a: '1.005' }, '$1.01'],
  ['{{ a | money: "JPY", "ja-JP" }}', { a: 1234.5 }, '￥1,235'],
  ['{{ a | money: c, l }}', { a: 99, c: 'CHF', l: 'de-CH' }, `CHF${NBSP}99.00`],
  ['{{ a | money: "EUR" }}', { a: '12345678901234567890.125' }, '€12,345,678,901,234,567,890.13'],
  ['[{{ a | money: "EUR" }}]', { a: null }, '[]'],
  ['{{ 1234.5678 | number }}', {}, '1,234.568'],
  ['{{ 1234.5 | number: 2, "de-DE" }}', {}, '1.234,50'],
  ['{{ "0.125" | number: 2 }}', {}, '0.13'],
  ['{{ 3 | number: 0, "fr-FR" }}', {}, '3'],
  ['{{ 1234567 | number: 0, "fr-FR" }}', {}, `1${NNBSP}234${NNBSP}567`],
  ['{{ 19 | percent }}', {}, '19%'],
  ['{{ "7.5" | percent: 1, "de-DE" }}', {}, `7,5${NBSP}%`],
  ['{{ 0.1 | percent: 2 }}', {}, '0.10%'],
  ['{{ "2026-11-02" | date_format }}', {}, 'Nov 2, 2026'],
  ['{{ "2026-11-02" | date_format: "long", "de-DE" }}', {}, '2. November 2026'],
  ['{{ "2026-11-02" | date_format: "full", "en-GB", "Pacific/Kiritimati" }}', {}, 'Monday, 2 November 2026'],
  ['{{ "2026-11-02" | date_format: "dd.MM.yyyy" }}', {}, '02.11.2026'],
  [
    '{{ "2026-11-02T23:30:00Z" | date_format: "dd.MM.yyyy HH:mm", "de-DE", "Europe/Berlin" }}',
    {},
    '03.11.2026 00:30',
  ],
  [
    '{{ "2026-07-01T12:00:00+02:00" | date_format: "yyyy-MM-dd HH:mm:ss", "en", "UTC" }}',
    {},
    '2026-07-01 10:00:00',
  ],
  ['{{ "2026-11-02T08:05:09" | date_format: "h:mm:ss a", "en-US", "Asia/Tokyo" }}', {}, '8:05:09 AM'],
  ['{{ "2026-11-02" | date_format: "EEEE, d MMMM yy", "fr-FR" }}', {}, 'lundi, 2 novembre 26'],
  ['{{ "2026-11-02" | date_format: "EEE d MMM \'at\' yyyy \'\'" }}', {}, "Mon 2 Nov at 2026 '"],
  [
    '{{ d | date_format: "medium", "en-US", "America/New_York" }}',
    { d: '2026-01-01T03:00:00Z' },
    'Dec 31, 2025',
  ],
  ['[{{ d | date_format }}]', {}, '[]'],
  ['{{ "2024-02-29" | date_format: "d/M/yyyy" }}', {}, '29/2/2024'],
  ['{{ "a,b" | split: "," | join: "+" }} {{ "x" | upcase }}', {}, 'a+b X'],
];

const BAD_INPUTS: Array<[string, Record<string, unknown>, string]> = [
  ['{{ a | money: "EUR" }}', { a: 'twelve SECRET' }, 'money'],
  ['{{ a | money: "EUR" }}', { a: { x: 1 } }, 'money'],
  ['{{ a | money: "EUR" }}', { a: true }, 'money'],
  ['{{ a | money: "EUR" }}', { a: '1e5' }, 'money'],
  ['{{ 5 | money }}', {}, 'money'],
  ['{{ 5 | money: c }}', { c: 'EURO-SECRET' }, 'money'],
  ['{{ 5 | money: "EUR", l }}', { l: 'not a locale SECRET' }, 'money'],
  ['{{ a | number }}', { a: '1,5' }, 'number'],
  ['{{ 1 | number: 25 }}', {}, 'number'],
  ['{{ 1 | number: -1 }}', {}, 'number'],
  ['{{ a | percent }}', { a: [1] }, 'percent'],
  ['{{ a | date_format }}', { a: '02.11.2026 SECRET' }, 'date_format'],
  ['{{ a | date_format }}', { a: '2026-02-30' }, 'date_format'],
  ['{{ a | date_format }}', { a: '2026-11-02T25:00:00Z' }, 'date_format'],
  ['{{ a | date_format }}', { a: 1700000000 }, 'date_format'],
  ['{{ "2026-11-02" | date_format: "long", "en", z }}', { z: 'Mars/SECRET' }, 'date_format'],
  ['{{ "2026-11-02" | date_format: "dd Q yyyy" }}', {}, 'date_format'],
  ['{{ "2026-11-02" | date_format: 5 }}', {}, 'date_format'],
];

describe('Quire filters', () => {
  for (const [source, data, expected] of OUTPUTS) {
    it(`${source} → ${JSON.stringify(expected)}`, () => {
      assert.equal(render(source, data), expected);
    });
  }

  for (const [source, data, filter] of BAD_INPUTS) {
    it(`bad input ${source} ${JSON.stringify(data)} → template_render_error naming ${filter}`, () => {
      const err = renderError(source, data);
      assert.match(err.message, new RegExp(`"${filter}" filter`));
      assert.ok(!err.message.includes('SECRET'), err.message);
      assert.equal(err.details?.line, 1);
      assert.equal(typeof err.details?.column, 'number');
    });
  }

  it('uses the engine default locale and time zone when the template omits them', () => {
    const de = new LiquidRenderer({ locale: 'de-DE', timeZone: 'Europe/Berlin' });
    const html = de.renderSource(
      '{{ 1.5 | money: "EUR" }}|{{ t | date_format: "HH:mm" }}|{{ t | date: "%H:%M" }}',
      {
        t: '2026-11-02T10:00:00Z',
      },
    ).html;
    assert.equal(html, `1,50${NBSP}€|11:00|11:00`);
  });

  it('refuses a date_format pattern over 100 characters (compiled patterns are cached per thread)', () => {
    const pattern = `dd.MM.yyyy${' '.repeat(91)}`;
    assert.equal(pattern.length, 101);
    assert.equal(
      engine.renderSource('{{ d | date_format: p }}', { d: '2026-11-02', p: pattern.trimEnd() }).html,
      '02.11.2026',
    );
    const err = renderError('{{ d | date_format: p }}', { d: '2026-11-02', p: pattern });
    assert.equal(err.message, 'The "date_format" filter needs a pattern of at most 100 characters.');
  });

  it('keeps the standard filters strict: an unknown filter fails at parse time', () => {
    assert.throws(
      () => engine.parse('line one\n  {{ total | monney: "EUR" }}'),
      (err: unknown) =>
        err instanceof AppError &&
        err.code === 'template_render_error' &&
        err.message.includes('monney') &&
        err.details?.line === 2 &&
        err.details?.column === 3,
    );
  });
});
