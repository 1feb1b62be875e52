import { CopyButton } from './feedback';
import { curlSnippet, KEY_VARIABLE, typescriptSnippet } from './snippets';

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
