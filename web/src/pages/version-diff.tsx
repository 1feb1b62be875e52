import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { toast } from '../feedback';
import { type Box, changedRegions } from '../image-diff';
import { type DiffLine, diffCounts, diffLines } from '../text-diff';
import { Busy, ErrorText, Reason, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

type Template = Schemas['Template'];
type Mode = 'text' | 'visual';

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`Could not load the page image ${src}.`));
    img.src = src;
  });
}

function pixelsOf(img: HTMLImageElement, width: number, height: number): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0);
  return ctx.getImageData(0, 0, width, height);
}

/** The newer page as it is, with each changed region outlined (the rest of the page stays untouched). */
function paintRegions(canvas: HTMLCanvasElement, page: HTMLImageElement, boxes: Box[]): void {
  canvas.width = page.naturalWidth;
  canvas.height = page.naturalHeight;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(page, 0, 0);
  ctx.lineWidth = 2;
  for (const box of boxes) {
    ctx.fillStyle = 'rgba(220, 38, 38, 0.08)';
    ctx.fillRect(box.x - 2, box.y - 2, box.width + 4, box.height + 4);
    ctx.strokeStyle = '#dc2626';
    ctx.strokeRect(box.x - 2, box.y - 2, box.width + 4, box.height + 4);
  }
}

function regionWords(count: number): string {
  if (count === 0) return 'No visible change on page 1';
  return count === 1 ? '1 changed region outlined' : `${count} changed regions outlined`;
}

/**
 * Page 1 of two versions (their stored preview images) compared pixel by pixel: the newer one is shown with
 * the bounding box of each changed area outlined, so one added line marks one line, not the whole page.
 */
function VisualCompare({ older, newer }: { older: Template; newer: Template }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [regions, setRegions] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    setRegions(null);
    Promise.all([loadImage(older.thumbnail_url), loadImage(newer.thumbnail_url)])
      .then(([a, b]) => {
        if (!live) return;
        const width = Math.max(a.naturalWidth, b.naturalWidth);
        const height = Math.max(a.naturalHeight, b.naturalHeight);
        const boxes = changedRegions(pixelsOf(a, width, height), pixelsOf(b, width, height));
        paintRegions(canvas.current!, b, boxes);
        setRegions(boxes.length);
      })
      .catch((err: unknown) => live && setError(err));
    return () => {
      live = false;
    };
  }, [older.thumbnail_url, newer.thumbnail_url]);
  return (
    <>
      {regions === null && !error && <Busy label="Comparing page images…" />}
      <ErrorText error={error} />
      <div class="diff-grid">
        <figure>
          <img src={older.thumbnail_url} alt={`Page 1 of version ${older.version}`} />
          <figcaption>v{older.version}</figcaption>
        </figure>
        <figure>
          <canvas
            ref={canvas}
            role="img"
            aria-label={`Page 1 of version ${newer.version}, changed regions outlined`}
          />
          <figcaption data-testid="diff-result">
            v{newer.version}: {regions === null ? 'comparing…' : regionWords(regions)}
          </figcaption>
        </figure>
      </div>
    </>
  );
}

/** The parts of a version that make its PDF, as text to compare line by line. */
function sourcesOf(t: Template): { name: string; text: string }[] {
  return [
    { name: 'HTML', text: t.html },
    { name: 'CSS', text: t.css ?? '' },
    { name: 'Sample data', text: JSON.stringify(t.sample_data ?? {}, null, 2) },
    { name: 'Page settings', text: JSON.stringify(t.settings ?? {}, null, 2) },
  ];
}

function DiffView({ lines, label }: { lines: DiffLine[]; label: string }) {
  const sign = { same: ' ', add: '+', del: '−' } as const;
  const words = { same: '', add: 'added: ', del: 'removed: ' } as const;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the diff scrolls, so it must be reachable by keyboard (axe: scrollable-region-focusable)
    <section class="text-diff" aria-label={label} tabIndex={0}>
      <pre>
        {lines.map((line, i) => (
          <span key={i} class={`line ${line.kind}`}>
            <span class="sr-only">{words[line.kind]}</span>
            <span aria-hidden="true">{sign[line.kind]} </span>
            {line.text}
          </span>
        ))}
      </pre>
    </section>
  );
}

/** HTML, CSS, sample data and settings of two versions as line diffs. */
function TextCompare({ older, newer }: { older: Template; newer: Template }) {
  const after = sourcesOf(newer);
  return (
    <>
      <p class="hint">
        Lines marked − are only in v{older.version}; lines marked + are only in v{newer.version}.
      </p>
      {sourcesOf(older).map((part, i) => {
        const lines = diffLines(part.text, after[i]!.text);
        const { added, removed } = diffCounts(lines);
        return (
          <details key={part.name} open={i === 0}>
            <summary>
              {part.name}: {added === 0 && removed === 0 ? 'unchanged' : `${removed} removed, ${added} added`}
            </summary>
            <DiffView lines={lines} label={`${part.name} of v${older.version} against v${newer.version}`} />
          </details>
        );
      })}
    </>
  );
}

function VersionSelect({
  id,
  label,
  value,
  versions,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  versions: number[];
  onChange: (version: number) => void;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        {versions.map((v) => (
          <option key={v} value={v}>
            v{v}
          </option>
        ))}
      </select>
    </>
  );
}

function ModeToggle({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a two-button toggle, not a form fieldset
    <div class="segmented" role="group" aria-label="Compare as">
      {(['text', 'visual'] as const).map((m) => (
        <button key={m} type="button" aria-pressed={mode === m} onClick={() => onChange(m)}>
          {m === 'text' ? 'Text' : 'Visual'}
        </button>
      ))}
    </div>
  );
}

/** Saves an old version's content again as the newest version, so history only grows (spec: versions). */
function useRestore(
  id: string,
  version: number,
  current: number,
  dirty: boolean,
  onDone: (t: Template) => void,
) {
  const { busy, error, run } = useAction();
  const restore = async (old: Template | undefined) => {
    if (!old) return;
    await run(
      async () => {
        const saved = await call(
          api.PUT('/templates/{id}', {
            params: { path: { id } },
            body: {
              html: old.html,
              css: old.css,
              sample_data: old.sample_data ?? {},
              settings: old.settings,
              message: `Restored from v${version}`,
            },
          }),
        );
        toast(`Version ${version} restored as version ${saved.current_version}.`);
        onDone(saved);
      },
      {
        ask: {
          title: `Restore version ${version}?`,
          body:
            `Its HTML, CSS, sample data and page settings are saved as version ${current + 1}; ` +
            'the versions in between stay in the history.' +
            (dirty ? ' Your unsaved changes in the editor are replaced by it.' : ''),
          action: `Restore v${version}`,
        },
      },
    );
  };
  return { busy, error, restore };
}

/**
 * The one compare view: two versions (by default the chosen one against the current one) as text (line
 * diffs of their sources) or visually (page 1, changed regions outlined), and "Restore as a new version".
 */
export function VersionCompare({
  id,
  version,
  current,
  versions,
  readOnlyReason,
  dirty,
  onRestored,
  onClose,
}: {
  id: string;
  /** The version the user chose to compare. */
  version: number;
  current: number;
  /** Every version still kept, newest first. */
  versions: number[];
  /** Why restoring is off (test mode), or null. */
  readOnlyReason: string | null;
  /** The editor has unsaved changes, which a restore replaces. */
  dirty: boolean;
  onRestored: (template: Template) => void;
  onClose: () => void;
}) {
  const [from, setFrom] = useState(version);
  const [to, setTo] = useState(current);
  const [mode, setMode] = useState<Mode>('text');
  const pair = useLoad(
    () =>
      Promise.all(
        [from, to].map((v) =>
          call(api.GET('/templates/{id}', { params: { path: { id }, query: { version: v } } })),
        ),
      ),
    [id, from, to],
  );
  const restoring = useRestore(id, from, current, dirty, onRestored);
  const [older, newer] = pair.data?.[0]?.version === from && pair.data[1]?.version === to ? pair.data : [];
  return (
    <section class="panel" aria-labelledby="version-source-title" data-testid="version-source">
      <div class="page-head">
        <h2 id="version-source-title">Compare versions</h2>
        <div class="actions">
          {from !== current && (
            <button
              type="button"
              class="primary"
              onClick={() => restoring.restore(older)}
              disabled={restoring.busy || !older || readOnlyReason !== null}
              aria-describedby={readOnlyReason ? 'restore-reason' : undefined}
            >
              {restoring.busy ? 'Restoring…' : `Restore v${from} as a new version`}
            </button>
          )}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <div class="inline compare-controls">
        <VersionSelect id="diff-a" label="From" value={from} versions={versions} onChange={setFrom} />
        <VersionSelect id="diff-b" label="To" value={to} versions={versions} onChange={setTo} />
        <ModeToggle mode={mode} onChange={setMode} />
      </div>
      <Reason id="restore-reason" text={readOnlyReason} />
      <ErrorText error={restoring.error ?? pair.error} />
      {!older && !pair.error && <Skeleton label="Loading both versions…" rows={4} />}
      {older && newer && mode === 'text' && <TextCompare older={older} newer={newer} />}
      {older && newer && mode === 'visual' && <VisualCompare older={older} newer={newer} />}
    </section>
  );
}
