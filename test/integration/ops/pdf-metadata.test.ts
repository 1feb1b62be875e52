import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

const run = promisify(execFile);
const VERSION = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
).version;

/** pdfinfo's "Key: value" lines (poppler-utils, the tool operators would use). */
async function pdfinfo(pdf: Buffer): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-meta-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const { stdout } = await run('pdfinfo', [file]);
    return Object.fromEntries(
      stdout.split('\n').flatMap((line) => {
        const m = /^([^:]+):\s*(.*)$/.exec(line);
        return m ? [[m[1] ?? '', m[2] ?? '']] : [];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PDF metadata: title, producer, creator, language', () => {
  let server: TestServer;
  let team: TestTeam;
  before(async () => {
    server = await startTestServer();
    team = await server.team('growth');
  });
  after(async () => server.close());

  const pdfOf = async (body: Record<string, unknown>) => {
    const res = await api(server.base, 'POST', '/v1/pdf', { key: team.live, body });
    assert.equal(res.status, 200, res.text);
    return res.buffer;
  };

  it('takes the title from <title>, names Quire, and sets /Lang from <html lang>', async () => {
    const pdf = await pdfOf({
      html: '<html lang="de-CH"><head><title>Rechnung 42</title></head><body><p>Hallo</p></body></html>',
    });
    const info = await pdfinfo(pdf);
    assert.equal(info.Title, 'Rechnung 42');
    assert.equal(info.Creator, `Quire ${VERSION}`);
    assert.match(info.Producer ?? '', new RegExp(`^Quire ${VERSION.replace(/\./g, '\\.')}`));
    assert.equal((await PDFDocument.load(pdf)).getLanguage(), 'de-CH');
  });

  it('falls back to the file name, then the template name, never about:blank', async () => {
    const named = await pdfinfo(await pdfOf({ html: '<p>no title</p>', filename: 'invoice-7' }));
    assert.equal(named.Title, 'invoice-7');
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: { name: 'Monthly report', html: '<p>{{ x }}</p>' },
    });
    assert.equal(created.status, 201, created.text);
    const fromTemplate = await pdfinfo(await pdfOf({ template_id: created.json.id, data: { x: 1 } }));
    assert.equal(fromTemplate.Title, 'Monthly report');
    const bare = await pdfinfo(await pdfOf({ html: '<p>bare</p>' }));
    assert.equal(bare.Title, 'document');
  });
});
