import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

describe('error messages say how to fix the request', () => {
  let server: TestServer;
  let team: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team } = both));
  const postPdf = (body: unknown) => api(server.base, 'POST', '/v1/pdf', { key: team.test, body });

  it('lists the allowed values of an enum and suggests near-miss field names', async () => {
    const format = await postPdf({ html: '<p/>', format: 'A3' });
    assert.equal(format.status, 400);
    assert.equal(format.json.error.code, 'invalid_request');
    assert.equal(
      format.json.error.message,
      'Field "format" must be one of "A4", "A5", "Letter", "Legal" or an object {width, height}.',
    );
    const margin = await postPdf({ html: '<p/>', margin: '1mm' });
    assert.equal(margin.json.error.message, 'Unknown field "margin" in the body; did you mean "margins"?');
  });

  it('suggests the /v1 path for a route sent without it', async () => {
    const pdf = await api(server.base, 'POST', '/pdf', { key: team.test, body: { html: '<p/>' } });
    assert.equal(pdf.status, 404);
    assert.equal(pdf.json.error.code, 'not_found');
    assert.match(pdf.json.error.message, /Did you mean POST \/v1\/pdf\?/);
    const template = await api(server.base, 'GET', '/templates/00000000-0000-4000-8000-000000000000', {
      key: team.test,
    });
    assert.match(
      template.json.error.message,
      /Did you mean GET \/v1\/templates\/00000000-0000-4000-8000-000000000000\?/,
    );
    const nothing = await api(server.base, 'GET', '/nothing', { key: team.test });
    assert.equal(nothing.status, 404);
    assert.doesNotMatch(nothing.json.error.message, /Did you mean/);
  });
});
