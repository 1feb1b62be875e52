import { CopyButton } from './feedback';

/** Where the snippets send requests and with what: never a real key, only the placeholder's name. */
interface SnippetInput {
  /** The service's address as this browser reaches it, e.g. `https://pdf.example.com`. */
  origin: string;
  templateId: string;
  data: Record<string, unknown>;
}

/** The environment variable the snippets read the API key from (keys are made on the API keys page). */
const KEY_VARIABLE = 'QUIRE_API_KEY';

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

function Snippet({ id, title, code }: { id: string; title: string; code: string }) {
  return (
    <div class="snippet">
      <div class="snippet-head">
        <h3 id={id}>{title}</h3>
        <CopyButton text={code} label={`the ${title} snippet`} />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a code block that scrolls sideways must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <pre tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/**
 * "Use from the API": the calls that render this template, filled with its id and sample data and this
 * server's address. The key is a placeholder variable: a secret is never shown again after it is made.
 */
export function ApiPanel({ templateId, data }: { templateId: string; data: Record<string, unknown> }) {
  const input = { origin: location.origin, templateId, data };
  return (
    <details class="panel api-panel">
      <summary>Use from the API</summary>
      <p class="hint">
        Template id <code>{templateId}</code> <CopyButton text={templateId} label="the template id" />. Set{' '}
        <code>{KEY_VARIABLE}</code> to a key from the <a href="#/keys">API keys</a> page (a test key makes
        watermarked, uncounted PDFs). Reference: <a href="/docs">API docs</a>, errors at{' '}
        <a href="/docs/errors">/docs/errors</a>.
      </p>
      <Snippet id="snippet-curl" title="curl" code={curlSnippet(input)} />
      <Snippet id="snippet-ts" title="TypeScript" code={typescriptSnippet(input)} />
    </details>
  );
}
