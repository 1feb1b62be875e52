import { Busy, ErrorText } from '../../ui';
import { AccessibilitySummary } from './accessibility-summary';
import { PreviewPages } from './preview-pages';
import type { PreviewState } from './use-preview';

function pageCountText(count: number | undefined): string {
  return count ? `(${count} page${count === 1 ? '' : 's'})` : '';
}

/** The unsaved content as Quire renders it, beside the panes, with the watermarked PDF a click away. */
export function PreviewPane({ preview, onOpenPdf }: { preview: PreviewState; onOpenPdf: () => void }) {
  return (
    <section class="preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview {pageCountText(preview.pageCount)}</h2>
      <p class="hint" id="preview-note">
        The unsaved content, rendered by Quire page by page. Previews are watermarked in Live mode too and
        never stored or counted: the API watermarks every preview. Generate makes the real PDF. Ctrl+Enter
        renders at once.
      </p>
      <p class="preview-actions">
        <button type="button" onClick={onOpenPdf} disabled={!preview.shown} aria-describedby="preview-note">
          Open PDF
        </button>
      </p>
      {/* A fixed slot: progress appearing must not move the controls below while someone clicks them. */}
      <div class="busy-slot">{preview.busy && <Busy label="Rendering preview…" />}</div>
      <ErrorText error={preview.error} id="preview-error" />
      <AccessibilitySummary report={preview.accessibility} />
      {preview.pages.length > 0 && <PreviewPages preview={preview} />}
    </section>
  );
}
