import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EXAMPLE_ID } from '../../../src/http/openapi.js';
import { api, createTestSignInLink, startTestServer, type TestServer } from '../../helpers/server.js';

interface Operation {
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  security?: Array<Record<string, string[]>>;
}

/** Sent with a bearer key: operations a key cannot call (dashboard session routes, sign-in) are left out. */
function keyCanCall(operation: Operation): boolean {
  return !operation.security || operation.security.some((requirement) => 'bearer' in requirement);
}

interface Sent {
  label: string;
  method: string;
  path: string;
  body: unknown;
}

/** Every request-body example of the OpenAPI document, with its operation (Swagger UI's "Try it out"). */
function examplesOf(document: { paths: Record<string, Record<string, Operation>> }): Sent[] {
  const out: Sent[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const media = operation.requestBody?.content['application/json'];
      if (!operation.requestBody) continue;
      assert.ok(
        media?.examples && Object.keys(media.examples).length > 0,
        `${method} ${path} has no example`,
      );
      if (!keyCanCall(operation)) continue;
      for (const [name, example] of Object.entries(media.examples))
        out.push({ label: `${method.toUpperCase()} ${path} (${name})`, method, path, body: example.value });
    }
  }
  return out;
}

describe('OpenAPI request-body examples work against the real server', () => {
  let server: TestServer;
  let key: string;
  let ids: { templates: string; webhooks: string; member: string };
  before(async () => {
    // Examples name public hosts (example.com): a fixed public address stands in for DNS.
    server = await startTestServer({}, { resolveHost: async () => ['93.184.216.34'] });
    const team = await server.team('scale');
    key = team.live;
    const template = await api(server.base, 'POST', '/v1/templates', {
      key,
      body: { name: 'Example', html: '<p>{{ number }}</p>', sample_data: { number: '1' } },
    });
    const endpoint = await api(server.base, 'POST', '/v1/webhooks', {
      key,
      body: { url: 'https://example.com/hooks/a', events: ['pdf.created'] },
    });
    assert.equal(template.status, 201, template.text);
    assert.equal(endpoint.status, 201, endpoint.text);
    // A dashboard member of the team, for PUT /members/{user}.
    const member = await createTestSignInLink(server, 'member@example.com', team.team.id, 'member');
    ids = { templates: template.json.id, webhooks: endpoint.json.id, member: member.user.id };
  });
  after(async () => server.close());

  it('answers every example with 2xx', async () => {
    const document = (await api(server.base, 'GET', '/v1/openapi.json')).json;
    const examples = examplesOf(document);
    assert.ok(examples.length >= 15, `only ${examples.length} examples`);
    for (const example of examples) {
      const owner = example.path.startsWith('/webhooks') ? ids.webhooks : ids.templates;
      const path = `/v1${example.path.replace('{id}', owner).replace('{user}', ids.member)}`;
      const body = JSON.parse(JSON.stringify(example.body).replaceAll(EXAMPLE_ID, ids.templates));
      const res = await api(server.base, example.method.toUpperCase(), path, { key, body });
      assert.ok(
        res.status >= 200 && res.status < 300,
        `${example.label} → ${res.status} ${res.text.slice(0, 300)}`,
      );
    }
  });
});
