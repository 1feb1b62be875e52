import { describe } from 'node:test';
import { type Rng, randomJson } from '../../helpers/random.js';
import { draftBodiesProperty } from './helpers.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 23);
const RUNS = Number(process.env.QUIRE_DRAFT_PROPERTY_RUNS ?? 40);

const HTMLS = [
  '<p>{{ who }}</p>',
  '<p>{% if who %}{{ who | upcase }}{% endif %}</p>',
  '<p>{% if %}</p>',
  '<p>{{ who | nosuchfilter }}</p>',
  '{% for i in (1..3) %}<p>{{ i }}</p>{% endfor %}',
  '<p>{{ </p>',
  '',
];
const SETTINGS = [
  { format: 'A4' },
  { format: 'Letter', orientation: 'landscape' },
  { margin: '10mm 5mm' },
  { margin: '40cm' },
  { mode: 'fast' },
  { format: 'B9' },
];

function randomBody(r: Rng): unknown {
  if (r.next() < 0.15) return randomJson(r, 0, ['html', 'css', 'settings', 'data']);
  const body: Record<string, unknown> = {
    html: r.next() < 0.9 ? r.pick(HTMLS) : randomJson(r, 2),
  };
  if (r.next() < 0.5) body.css = r.next() < 0.9 ? r.pick(['p { color: red }', '', '}{']) : randomJson(r, 2);
  if (r.next() < 0.5) body.settings = r.next() < 0.8 ? r.pick(SETTINGS) : randomJson(r, 2);
  if (r.next() < 0.6) body.data = r.next() < 0.7 ? { who: randomJson(r, 2) } : randomJson(r, 2);
  if (r.next() < 0.08) body.version = randomJson(r, 1);
  return body;
}

/** Property: any draft-preview body gets a PDF or the spec's error object (400 or 422), never 5xx. */
describe('property: POST /v1/templates/<id>/draft-preview bodies', () => {
  draftBodiesProperty('draft-preview', randomBody, { seed: SEED, runs: RUNS });
});
