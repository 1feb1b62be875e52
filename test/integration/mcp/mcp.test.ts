import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EINVOICE_EXAMPLE } from '../../../src/pdf/examples.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { bundleOrSource } from '../../helpers/quire-process.js';
import { randomJson, rng } from '../../helpers/random.js';
import { api, serverForBlock, type TestServer, type TestTeam } from '../../helpers/server.js';

/** The MCP SDK's own client on the server's /mcp endpoint with `key`. */
async function mcpClient(server: TestServer, key: string): Promise<Client> {
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the tools' JSON answers
  structuredContent?: any;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

describe('MCP server at /mcp', () => {
  let server: TestServer;
  let team: TestTeam;
  let other: TestTeam;
  serverForBlock(
    async (started) => {
      server = started;
      team = await server.team('growth');
      other = await server.team('growth');
    },
    // The suite shares a small machine (load far above its cores): the product's 10 s per e-invoice check
    // would measure the machine, not the file (as in einvoice-inbound/validate.test.ts).
    { einvoiceCheckTimeoutMs: 120_000 },
  );

  it('lists the tools with the REST input schemas, renders a template with a test key and links the document', async () => {
    const client = await mcpClient(server, team.test);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      assert.deepEqual(names, [
        'get_document',
        'get_template',
        'list_documents',
        'list_templates',
        'parse_e_invoice',
        'render_document',
        'validate_e_invoice',
      ]);
      const render = tools.find((t) => t.name === 'render_document');
      const properties = Object.keys(render?.inputSchema.properties ?? {});
      for (const field of ['template_id', 'html', 'data', 'format', 'response'])
        assert.ok(properties.includes(field), `render_document takes ${field} as POST /v1/pdf does`);

      // Templates are made with a live key; a test key reads and renders them.
      const created = await api(server.base, 'POST', '/v1/templates', {
        key: team.live,
        body: { name: 'Agent letter', html: '<h1>Hello {{ name }}</h1>' },
      });
      assert.equal(created.status, 201, created.text);
      const listed = await call(client, 'list_templates', {});
      assert.ok(!listed.isError, listed.content[0]?.text);
      assert.ok(JSON.stringify(listed.structuredContent).includes(created.json.id));

      const rendered = await call(client, 'render_document', {
        template_id: created.json.id,
        data: { name: 'Ada' },
      });
      assert.ok(!rendered.isError, rendered.content[0]?.text);
      const doc = rendered.structuredContent;
      assert.equal(doc.pages, 1);
      assert.equal(doc.test, true, 'a test key makes a test document');
      const file = await fetch(doc.url);
      assert.equal(file.status, 200);
      const pdf = Buffer.from(await file.arrayBuffer());
      assert.equal((await pdfInfo(pdf)).pages, 1);
      assert.match(await pdfText(pdf), /Hello Ada/);

      const fetched = await call(client, 'get_document', { id: doc.id });
      assert.equal(fetched.structuredContent.id, doc.id);
      const recent = await call(client, 'list_documents', { limit: 5 });
      assert.ok(JSON.stringify(recent.structuredContent).includes(doc.id));

      const missing = await call(client, 'get_template', { id: '00000000-0000-4000-8000-000000000000' });
      assert.equal(missing.isError, true);
      assert.equal(missing.structuredContent.error.code, 'template_not_found');

      const other_ = await mcpClient(server, other.test);
      try {
        const stolen = await call(other_, 'get_document', { id: doc.id });
        assert.equal(stolen.isError, true);
        assert.equal(stolen.structuredContent.error.code, 'document_not_found');
      } finally {
        await other_.close();
      }
    } finally {
      await client.close();
    }
  });

  it('validates and parses an XRechnung made by POST /v1/pdf (validate_e_invoice, parse_e_invoice)', async () => {
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { e_invoice: { standard: 'xrechnung-cii', profile: 'xrechnung', invoice: EINVOICE_EXAMPLE } },
    });
    assert.equal(made.status, 200, made.text);
    assert.match(made.buffer.toString('utf8'), /<rsm:CrossIndustryInvoice/);
    const file = { filename: 'R-2026-1001.xml', content_base64: made.buffer.toString('base64') };
    const client = await mcpClient(server, team.test);
    try {
      const validated = await call(client, 'validate_e_invoice', file);
      assert.ok(!validated.isError, validated.content[0]?.text);
      assert.deepEqual(validated.structuredContent.errors, []);
      assert.equal(validated.structuredContent.valid, true);
      assert.equal(validated.structuredContent.standard, 'xrechnung-cii');

      const parsed = await call(client, 'parse_e_invoice', file);
      assert.ok(!parsed.isError, parsed.content[0]?.text);
      assert.equal(parsed.structuredContent.standard, 'xrechnung-cii');
      assert.equal(parsed.structuredContent.invoice.number, EINVOICE_EXAMPLE.number);

      const broken = await call(client, 'parse_e_invoice', { filename: 'x.xml', content_base64: '!!' });
      assert.equal(broken.isError, true);
      assert.equal(broken.structuredContent.error.code, 'invalid_request');
    } finally {
      await client.close();
    }
  });

  it('refuses a request without a valid key with invalid_api_key', async () => {
    const r = await api(server.base, 'POST', '/mcp', {
      key: 'qk_test_not_a_key',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    assert.equal(r.status, 401);
    assert.equal(r.json.error.code, 'invalid_api_key');
  });

  it('answers random JSON-RPC bodies and tool arguments without a server error', async () => {
    const r = rng(52);
    const keys = ['jsonrpc', 'id', 'method', 'params', 'name', 'arguments', 'template_id', 'html', 'limit'];
    const methods = ['tools/list', 'tools/call', 'initialize', 'nope'];
    const tools = ['get_document', 'list_documents', 'get_template', 'list_templates', 'no_such_tool'];
    for (let i = 0; i < 24; i += 1) {
      const body =
        i % 2 === 0
          ? randomJson(r, 0, keys)
          : {
              jsonrpc: '2.0',
              id: i,
              method: methods[i % methods.length],
              params: { name: tools[i % tools.length], arguments: randomJson(r, 1, keys) },
            };
      const answer = await api(server.base, 'POST', '/mcp', {
        key: team.test,
        body,
        headers: { accept: 'application/json, text/event-stream' },
      });
      assert.ok(answer.status < 500, `${JSON.stringify(body)} → ${answer.status} ${answer.text}`);
    }
  });

  it('`quire mcp` serves the same tools on stdio, acting with QUIRE_API_KEY against QUIRE_URL', async () => {
    const client = new Client({ name: 'quire-test-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(process.cwd(), 'bin/quire.mjs'), 'mcp'],
        env: { ...stringEnv(), ...bundleOrSource(), QUIRE_URL: server.base, QUIRE_API_KEY: other.test },
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'render_document'));
      const listed = await call(client, 'list_documents', { limit: 1 });
      assert.ok(!listed.isError, listed.content[0]?.text);
      const missing = await call(client, 'get_document', { id: '00000000-0000-4000-8000-000000000000' });
      assert.equal(missing.structuredContent.error.code, 'document_not_found');
    } finally {
      await client.close();
    }
  });
});

function stringEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
