import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { damagedBytes, rng } from '../../test/helpers/random.js';
import { withinTime } from '../../test/helpers/wait.js';
import { woff2Of } from '../../test/helpers/woff2.js';
import { makeXlsx } from '../../test/helpers/xlsx.js';
import { isAppError } from '../shared/errors.js';
import { UntrustedFiles } from './pool.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 24);
const RUNS = Number(process.env.QUIRE_UNTRUSTED_FUZZ_RUNS ?? 40);
/** Generous: a task past its own limit is refused by the pool; this only catches a hang of the pool itself. */
const HANG_MS = 60_000;
/** The fair queue's lane of every file here: one team's. */
const TEAM = 'team-a';

const TTF = readFileSync('/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf');
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><defs><g id="a"><rect width="2" height="2"/></g></defs><use href="#a"/><use href="#a" x="3"/></svg>',
);
const CSV = Buffer.from('number;customer\n"A-1";"Ada, ""the first"""\nA-2;Bob\n');

/** What the work was refused with, or undefined when it answered; a hang of the pool fails. */
function settle<T>(work: Promise<T>): Promise<unknown> {
  return withinTime(work, HANG_MS, `no answer within ${HANG_MS} ms`).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('fuzz: untrusted-file parsers on random and damaged bytes', () => {
  const files = new UntrustedFiles({ threads: 1 });
  after(async () => {
    await files.close();
  });

  it(`answers ${RUNS} damaged files per format (seed ${SEED}) or refuses them with invalid_request and the field, never another error or a hang`, async () => {
    const r = rng(SEED);
    const xlsx = await makeXlsx([
      ['Number', 'Amount', 'Due'],
      ['A-1', 12.5, new Date(Date.UTC(2026, 1, 3))],
    ]);
    const woff2 = woff2Of(TTF);
    const cases: [string, Buffer, (bytes: Buffer) => Promise<unknown>][] = [
      ['xlsx', xlsx, (b) => files.spreadsheet(TEAM, b, 100, 'f')],
      ['csv', CSV, (b) => files.spreadsheet(TEAM, b, 100, 'f')],
      ['svg', SVG, (b) => files.logo(TEAM, b, 'f')],
      ['woff2', woff2, (b) => files.font(TEAM, b, 'f')],
      ['ttf', TTF, (b) => files.font(TEAM, b, 'f')],
    ];
    for (const [name, base, read] of cases) {
      for (let n = 0; n < RUNS; n++) {
        const bytes = damagedBytes(r, base, 60);
        const err = await settle(read(bytes));
        if (err === undefined) continue;
        assert.ok(
          isAppError(err) && err.code === 'invalid_request' && err.details?.field === 'f',
          `${name} #${n} (${bytes.length} bytes): ${String(err)}`,
        );
      }
    }
  });

  it('stops a parse past its wall-clock limit by terminating the worker, refused with the limit; the next file is read', async () => {
    const hurried = new UntrustedFiles({ threads: 1, timeMs: { logo: 1 } });
    try {
      // Rasterising even this small SVG (resvg loads the installed fonts first) takes far more than 1 ms. A
      // file that waited over half its 1 ms for the thread is not blamed (service_busy, retry): on a loaded
      // machine that happens, so ask again until the file had its limit to itself.
      let err = await settle(hurried.logo(TEAM, SVG, 'content_base64'));
      for (let i = 0; i < 10 && isAppError(err) && err.code === 'service_busy'; i++)
        err = await settle(hurried.logo(TEAM, SVG, 'content_base64'));
      assert.ok(isAppError(err), String(err));
      assert.equal(err.code, 'invalid_request');
      assert.match(err.message, /took longer than 0\.001 s/);
      assert.deepEqual(err.details, { field: 'content_base64', limit: 'parse_time_ms', max: 1 });
      const font = await hurried.font(TEAM, TTF, 'content_base64');
      assert.equal(font.family, 'Liberation Mono');
    } finally {
      await hurried.close();
    }
  });
});
