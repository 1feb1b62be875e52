/** The "Use from the API" snippets as text (pure, so a unit test can run them through a shell). */

/** Where the snippets send requests and with what: never a real key, only the placeholder's name. */
export interface SnippetInput {
  /** The service's address as this browser reaches it, e.g. `https://pdf.example.com`. */
  origin: string;
  templateId: string;
  data: Record<string, unknown>;
}

/** The environment variable the snippets read the API key from (keys are made on the API keys page). */
export const KEY_VARIABLE = 'QUIRE_API_KEY';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that renders the template with `data` and saves the PDF. */
export function curlSnippet({ origin, templateId, data }: SnippetInput): string {
  const body = JSON.stringify({ template_id: templateId, data }, null, 2);
  return [
    `curl -X POST ${origin}/v1/pdf \\`,
    `  -H "Authorization: Bearer $${KEY_VARIABLE}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d ${shellQuote(body)} \\`,
    '  -o document.pdf',
  ].join('\n');
}

/** The same request through the TypeScript client (@quire/client), with its retries and idempotency key. */
export function typescriptSnippet({ origin, templateId, data }: SnippetInput): string {
  const json = JSON.stringify(data, null, 2).replace(/\n/g, '\n  ');
  return [
    '// @quire/client is not on the npm registry yet: install its tarball (see docs/client.md).',
    "import { writeFile } from 'node:fs/promises';",
    "import { QuireClient } from '@quire/client';",
    '',
    `const quire = new QuireClient({ baseUrl: '${origin}', apiKey: process.env.${KEY_VARIABLE}! });`,
    'const file = await quire.pdf({',
    `  template_id: '${templateId}',`,
    `  data: ${json},`,
    '});',
    "await writeFile('document.pdf', file.bytes);",
  ].join('\n');
}
