import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PDFDocument } from '@cantoo/pdf-lib';
import { pdfInfoFields } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

const VERSION = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
).version;

describe('PDF metadata: title, producer, creator, language', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both));

  const pdfOf = async (body: Record<string, unknown>) => {
    const res = await api(server.base, 'POST', '/v1/pdf', { key: team.live, body });
    assert.equal(res.status, 200, res.text);
    return res.buffer;
  };

  it('takes the title from <title>, names Quire, and sets /Lang from <html lang>', async () => {
    const pdf = await pdfOf({
      html: '<html lang="de-CH"><head><title>Rechnung 42</title></head><body><p>Hallo</p></body></html>',
    });
    const info = await pdfInfoFields(pdf);
    assert.equal(info.Title, 'Rechnung 42');
    assert.equal(info.Creator, `Quire ${VERSION}`);
    assert.match(info.Producer ?? '', new RegExp(`^Quire ${VERSION.replace(/\./g, '\\.')}`));
    assert.equal((await PDFDocument.load(pdf)).getLanguage(), 'de-CH');
  });

  it('falls back to the file name, then the template name, never about:blank', async () => {
    const named = await pdfInfoFields(await pdfOf({ html: '<p>no title</p>', filename: 'invoice-7' }));
    assert.equal(named.Title, 'invoice-7');
    const created = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: { name: 'Monthly report', html: '<p>{{ x }}</p>' },
    });
    assert.equal(created.status, 201, created.text);
    const fromTemplate = await pdfInfoFields(await pdfOf({ template_id: created.json.id, data: { x: 1 } }));
    assert.equal(fromTemplate.Title, 'Monthly report');
    const bare = await pdfInfoFields(await pdfOf({ html: '<p>bare</p>' }));
    assert.equal(bare.Title, 'document');
  });
});
