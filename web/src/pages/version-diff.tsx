import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { toast } from '../feedback';
import { type DiffLine, diffCounts, diffLines } from '../text-diff';
import { Busy, ErrorText, Reason, Skeleton, useLoad } from '../ui';
import { useAction } from '../use-action';

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

/**
 * Paints `out` with the difference of two page images: changed pixels in red, the rest as a faint copy of
 * the first image. Returns how many pixels changed. A per-channel tolerance ignores anti-aliasing noise.
 */
export function paintDifference(a: ImageData, b: ImageData, out: ImageData, tolerance = 32): number {
  let changed = 0;
  for (let i = 0; i < out.data.length; i += 4) {
    const delta = Math.max(
      Math.abs(a.data[i]! - b.data[i]!),
      Math.abs(a.data[i + 1]! - b.data[i + 1]!),
      Math.abs(a.data[i + 2]! - b.data[i + 2]!),
    );
    if (delta > tolerance) {
      changed++;
      out.data.set([220, 0, 0, 255], i);
    } else {
      const grey = 255 - (255 - a.data[i]!) * 0.25;
      out.data.set([grey, grey, grey, 255], i);
    }
  }
  return changed;
}

/** Page 1 of two versions side by side (their stored thumbnails) and their pixel difference. */
export function VersionDiff({ id, versions }: { id: string; versions: number[] }) {
  const [a, setA] = useState(versions[1] ?? versions[0] ?? 1);
  const [b, setB] = useState(versions[0] ?? 1);
  const [images, setImages] = useState<{ a: string; b: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [changed, setChanged] = useState<number | null>(null);
  const diff = useRef<HTMLCanvasElement>(null);

  const compare = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setChanged(null);
    try {
      const [ta, tb] = await Promise.all(
        [a, b].map((version) =>
          call(api.GET('/templates/{id}', { params: { path: { id }, query: { version } } })),
        ),
      );
      setImages({ a: ta!.thumbnail_url, b: tb!.thumbnail_url });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!images) return;
    Promise.all([loadImage(images.a), loadImage(images.b)])
      .then(([ia, ib]) => {
        const width = Math.max(ia.naturalWidth, ib.naturalWidth);
        const height = Math.max(ia.naturalHeight, ib.naturalHeight);
        const canvas = diff.current!;
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d')!;
        const out = ctx.createImageData(width, height);
        const count = paintDifference(pixelsOf(ia, width, height), pixelsOf(ib, width, height), out);
        ctx.putImageData(out, 0, 0);
        setChanged(count / (width * height));
      })
      .catch(setError)
      .finally(() => setBusy(false));
  }, [images]);

  return (
    <section aria-labelledby="diff-title" class="diff">
      <h2 id="diff-title">Compare versions</h2>
      <form class="inline" onSubmit={compare}>
        <label for="diff-a">From</label>
        <select id="diff-a" value={a} onChange={(e) => setA(Number(e.currentTarget.value))}>
          {versions.map((v) => (
            <option key={v} value={v}>
              v{v}
            </option>
          ))}
        </select>
        <label for="diff-b">To</label>
        <select id="diff-b" value={b} onChange={(e) => setB(Number(e.currentTarget.value))}>
          {versions.map((v) => (
            <option key={v} value={v}>
              v{v}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy}>
          Compare
        </button>
      </form>
      {busy && <Busy label="Comparing page images…" />}
      <ErrorText error={error} />
      {images && (
        <div class="diff-grid">
          <figure>
            <img src={images.a} alt={`Page 1 of version ${a}`} />
            <figcaption>v{a}</figcaption>
          </figure>
          <figure>
            <img src={images.b} alt={`Page 1 of version ${b}`} />
            <figcaption>v{b}</figcaption>
          </figure>
          <figure>
            <canvas ref={diff} role="img" aria-label="Pixel difference: changed pixels in red" />
            <figcaption data-testid="diff-result">
              {changed === null ? 'Difference' : `${(changed * 100).toFixed(2)} % of pixels differ`}
            </figcaption>
          </figure>
        </div>
      )}
    </section>
  );
}

type Template = Schemas['Template'];

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

/**
 * An old version's source (HTML, CSS, sample data, settings) as a line diff against the current version,
 * and "Restore as a new version": the old content saved again, so history only grows (spec: versions).
 */
export function VersionSource({
  id,
  version,
  current,
  readOnlyReason,
  dirty,
  onRestored,
  onClose,
}: {
  id: string;
  version: number;
  current: number;
  /** Why restoring is off (test mode), or null. */
  readOnlyReason: string | null;
  /** The editor has unsaved changes, which a restore replaces. */
  dirty: boolean;
  onRestored: (template: Template) => void;
  onClose: () => void;
}) {
  const pair = useLoad(
    () =>
      Promise.all(
        [version, current].map((v) =>
          call(api.GET('/templates/{id}', { params: { path: { id }, query: { version: v } } })),
        ),
      ),
    [id, version, current],
  );
  const { busy, error, run } = useAction();
  const restore = async () => {
    const old = pair.data?.[0];
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
            },
          }),
        );
        toast(`Version ${version} restored as version ${saved.current_version}.`);
        onRestored(saved);
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
  const [older, newer] = pair.data ?? [];
  return (
    <section class="panel" aria-labelledby="version-source-title" data-testid="version-source">
      <div class="page-head">
        <h2 id="version-source-title">
          Version {version} compared with the current version {current}
        </h2>
        <div class="actions">
          {version !== current && (
            <button
              type="button"
              class="primary"
              onClick={restore}
              disabled={busy || !older || readOnlyReason !== null}
              aria-describedby={readOnlyReason ? 'restore-reason' : undefined}
            >
              {busy ? 'Restoring…' : `Restore v${version} as a new version`}
            </button>
          )}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <Reason id="restore-reason" text={readOnlyReason} />
      <ErrorText error={error ?? pair.error} />
      {pair.loading && !pair.data && <Skeleton label="Loading both versions…" rows={4} />}
      {older && newer && (
        <>
          <p class="hint">Lines marked − are only in v{version}; lines marked + were added since.</p>
          {sourcesOf(older).map((part, i) => {
            const lines = diffLines(part.text, sourcesOf(newer)[i]!.text);
            const { added, removed } = diffCounts(lines);
            return (
              <details key={part.name} open={i === 0}>
                <summary>
                  {part.name}:{' '}
                  {added === 0 && removed === 0 ? 'unchanged' : `${removed} removed, ${added} added`}
                </summary>
                <DiffView lines={lines} label={`${part.name} of v${version} against v${current}`} />
              </details>
            );
          })}
        </>
      )}
    </section>
  );
}
