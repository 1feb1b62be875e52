import { spawn } from 'node:child_process';

/** Spec "Thumbnails": 480 px wide PNG of page 1. */
export const THUMBNAIL_WIDTH = 480;
/** pdftoppm takes ~100 ms for an invoice; a stuck one is killed after this. */
const THUMBNAIL_TIMEOUT_MS = 15_000;
/** A 480 px page-1 PNG is tens of KB; more means something is wrong. */
const MAX_PNG_BYTES = 16 * 1024 * 1024;

/**
 * Renders page 1 of a PDF as a 480 px wide PNG with poppler's pdftoppm in a child process (GPL tool
 * run as a separate program, not linked). Not for the render path: callers make thumbnails lazily,
 * on first request or in the background.
 */
export function makeThumbnail(pdf: Buffer, pdftoppm = 'pdftoppm'): Promise<Buffer> {
  const args = ['-png', '-f', '1', '-l', '1', '-scale-to-x', String(THUMBNAIL_WIDTH), '-scale-to-y', '-1'];
  return new Promise((resolve, reject) => {
    // No output root: with -singlefile pdftoppm writes the one PNG to stdout; '-' reads stdin.
    const child = spawn(pdftoppm, [...args, '-singlefile', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), THUMBNAIL_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PNG_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(chunks));
      reject(new Error(`pdftoppm failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
    child.stdin.on('error', () => undefined); // pdftoppm may exit before reading everything
    child.stdin.end(pdf);
  });
}
