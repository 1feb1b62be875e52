import { useState } from 'preact/hooks';
import type { PreviewState } from './use-preview';

/** Zoom levels of the preview pages, as a share of the preview column's width. */
const ZOOMS = [50, 75, 100, 125, 150, 200] as const;
const ZOOM_KEY = 'quire:preview-zoom';

function storedZoom(): number {
  let value = 100;
  try {
    value = Number(localStorage.getItem(ZOOM_KEY));
  } catch {
    // Storage disabled: fit width.
  }
  return (ZOOMS as readonly number[]).includes(value) ? value : 100;
}

/** The preview pages in a scrolling column, with a zoom the browser remembers between templates. */
export function PreviewPages({ preview }: { preview: PreviewState }) {
  const [zoom, setZoom] = useState(storedZoom);
  const change = (next: number) => {
    setZoom(next);
    try {
      localStorage.setItem(ZOOM_KEY, String(next));
    } catch {
      // Storage refused: the zoom still applies for this page.
    }
  };
  const at = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <>
      <fieldset class="preview-zoom">
        <legend class="sr-only">Preview zoom</legend>
        <button
          type="button"
          onClick={() => change(ZOOMS[at - 1] ?? zoom)}
          disabled={at <= 0}
          aria-label="Zoom out"
        >
          −
        </button>
        <label for="preview-zoom" class="sr-only">
          Zoom
        </label>
        <select id="preview-zoom" value={zoom} onChange={(e) => change(Number(e.currentTarget.value))}>
          {ZOOMS.map((z) => (
            <option key={z} value={z}>
              {z === 100 ? 'Fit width' : `${z} %`}
            </option>
          ))}
        </select>
        <button
          type="button"
          onClick={() => change(ZOOMS[at + 1] ?? zoom)}
          disabled={at >= ZOOMS.length - 1}
          aria-label="Zoom in"
        >
          +
        </button>
      </fieldset>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the pages scroll, so they must be reachable by keyboard (axe: scrollable-region-focusable) */}
      <section class="preview-pages" data-testid="preview-pages" tabIndex={0} aria-label="Preview pages">
        {preview.pages.map((p) => (
          <img
            key={p.page}
            class="preview-page"
            src={p.src}
            width={p.width}
            height={p.height}
            style={{ width: `${zoom}%` }}
            alt={`Page ${p.page} of the preview`}
          />
        ))}
        {preview.truncated && (
          <p class="hint">
            The first {preview.pages.length} of {preview.pageCount} pages are shown; open the PDF for all of
            them.
          </p>
        )}
      </section>
    </>
  );
}
