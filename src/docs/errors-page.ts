import { ERROR_CODES, type ErrorCode } from '../shared/errors.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped text whose `backticked` parts (field and code names in the meanings) show as code. */
function withCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The page every error's docs_url points at: one anchored row per code with status, meaning and retry advice. */
export function renderErrorsPage(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[])
    .map((code) => {
      const e = ERROR_CODES[code];
      return `<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${e.status}</td><td>${withCode(e.meaning)}</td><td>${withCode(e.retry)}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quire API errors</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left;vertical-align:top}
tr:target{background:#fff7d6}code{font-size:14px}</style></head>
<body><h1>Quire API errors</h1>
<p>Every error response has the form <code>{"error":{"code","message","docs_url","details?"}}</code>.
<code>code</code> is stable and meant for programs; <code>message</code> is for people and may change.
Every response carries an <code>x-request-id</code> header: quote it when reporting a problem.</p>
<table><thead><tr><th>Code</th><th>HTTP</th><th>Meaning</th><th>Retry</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p>Non-JSON request bodies get <code>invalid_request</code> with HTTP 415. <a href="/docs">API reference</a> · <a href="/v1/openapi.json">OpenAPI document</a></p>
</body></html>`;
}
