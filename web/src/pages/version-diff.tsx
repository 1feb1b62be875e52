import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call } from '../api';
import { Busy, ErrorText } from '../ui';

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
