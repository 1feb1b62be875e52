import { useState } from 'preact/hooks';
import { api, call, type Session } from './api';
import { CopyButton } from './feedback';
import { useLoad } from './ui';
import './onboarding.css';

const DISMISSED = 'quire.onboarding.dismissed';
const PREVIEWED = 'quire.onboarding.previewed';
/** The "call it from the API" step looks this far back for counted live documents. */
const LIVE_LOOKBACK_DAYS = 365;

interface Progress {
  templateId: string | null;
  templates: boolean;
  previewed: boolean;
  documents: boolean;
  apiCall: boolean;
  webhook: boolean;
}

/** An answer the caller's role may not read counts as "not done" rather than breaking the checklist. */
async function orFalse(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}

/** Each step's state from the API (what exists), except the preview, which leaves no trace there. */
async function loadProgress(): Promise<Progress> {
  const from = new Date(Date.now() - LIVE_LOOKBACK_DAYS * 86_400_000).toISOString().slice(0, 10);
  const templates = await call(api.GET('/templates', { params: { query: { limit: 1, offset: 0 } } }));
  const [documents, liveDocuments, liveKey, webhook] = await Promise.all([
    orFalse(
      async () => (await call(api.GET('/documents', { params: { query: { limit: 1 } } }))).data.length > 0,
    ),
    orFalse(
      async () =>
        (await call(api.GET('/account/usage/daily', { params: { query: { from } } }))).live_total > 0,
    ),
    orFalse(async () => (await call(api.GET('/keys'))).data.some((k) => k.mode === 'live' && !k.revoked_at)),
    orFalse(async () => (await call(api.GET('/webhooks'))).data.length > 0),
  ]);
  const templateId = templates.data[0]?.id ?? null;
  // The steps after the first are about "it", the template: documents made from plain HTML before any
  // template existed tick none of them.
  const hasTemplate = templateId !== null;
  return {
    templateId,
    templates: hasTemplate,
    previewed: hasTemplate && (localStorage.getItem(PREVIEWED) === '1' || documents),
    documents: hasTemplate && (documents || liveDocuments),
    // A live key and counted live documents: the team renders from its own code.
    apiCall: hasTemplate && liveKey && liveDocuments,
    webhook,
  };
}

/** Marks the preview step done (the editor's live preview or the checklist's own button). */
export function markPreviewed(): void {
  localStorage.setItem(PREVIEWED, '1');
}

interface Step {
  done: boolean;
  title: string;
  href: string;
  action: string;
  hint?: string;
}

function steps(p: Progress): Step[] {
  const template = p.templateId ? `/templates/${p.templateId}` : '/gallery';
  return [
    {
      done: p.templates,
      title: 'Create a template from a starter',
      href: '#/gallery',
      action: 'Open the gallery',
    },
    {
      done: p.previewed,
      title: 'Preview it with its sample data',
      href: `#${template}`,
      action: 'Open the editor',
    },
    {
      done: p.documents,
      title: 'Generate a PDF',
      href: p.templateId ? `#/generate?template=${p.templateId}` : '#/generate',
      action: 'Generate',
    },
    {
      done: p.apiCall,
      title: 'Call it from the API with a live key',
      href: '#/keys',
      action: 'Create a key',
    },
    {
      done: p.webhook,
      title: 'Add a webhook for finished documents',
      href: '#/webhooks',
      action: 'Add a webhook',
      // Webhook targets on loopback or private networks are refused unless the server allows them.
      hint: 'To receive it on this machine or a private network, start the server with QUIRE_ALLOW_PRIVATE_WEBHOOKS=true (development only).',
    },
  ];
}

function curlSnippet(templateId: string): string {
  return [
    `curl -X POST ${location.origin}/v1/pdf \\`,
    '  -H "Authorization: Bearer $QUIRE_API_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"template_id": "${templateId}", "data": {}}' -o document.pdf`,
  ].join('\n');
}

/**
 * The first-run checklist on the home page: create from a starter → preview → generate → call from the
 * API → add a webhook, each step checked from what exists; shown until every step is done or it is hidden.
 */
export function FirstRunChecklist({ session }: { session: Session }) {
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED) === '1');
  const progress = useLoad(
    () => (dismissed ? Promise.resolve(null) : loadProgress()),
    [dismissed, session.mode],
  );
  const p = progress.data;
  if (dismissed || !p) return null;
  const list = steps(p);
  const left = list.filter((s) => !s.done).length;
  if (left === 0) return null;
  return (
    <section class="card checklist" aria-labelledby="checklist-title" data-testid="first-run">
      <h2 id="checklist-title">
        Get started: {list.length - left} of {list.length} done
      </h2>
      <ol>
        {list.map((step) => (
          <li key={step.title} class={step.done ? 'done' : undefined} data-done={step.done}>
            <span class="tick" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <span class="title">
              {step.title}
              <span class="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
              {!step.done && step.hint && <small class="hint">{step.hint}</small>}
            </span>
            {!step.done && <a href={step.href}>{step.action}</a>}
          </li>
        ))}
      </ol>
      {p.templateId && !p.apiCall && (
        <details>
          <summary>Render your template from code</summary>
          <pre>{curlSnippet(p.templateId)}</pre>
          <CopyButton text={curlSnippet(p.templateId)} label="the curl command" />{' '}
          <a href="/docs" target="_blank" rel="noreferrer">
            API reference
          </a>
        </details>
      )}
      <button
        type="button"
        onClick={() => {
          localStorage.setItem(DISMISSED, '1');
          setDismissed(true);
        }}
      >
        Hide this checklist
      </button>
    </section>
  );
}
