import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import { Renderer } from '../../../src/render/index.js';
import type { ModeStrategy, PageOptions, RenderJob } from '../../../src/render/types.js';
import type { Warning } from '../../../src/shared/warnings.js';

export const FIXTURES = new URL('../../fixtures/print/', import.meta.url);

/** A web font for the data-URI fixture: Liberation Mono Italic (fonts-liberation2, installed by bootstrap). */
export const WEB_FONT_FILE = '/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf';

/** A fixture's HTML; FONT_DATA_URI is replaced by a data: URI of WEB_FONT_FILE (kept out of the repo). */
export function fixture(name: string): string {
  const html = readFileSync(new URL(name, FIXTURES), 'utf8');
  if (!html.includes('FONT_DATA_URI')) return html;
  const uri = `data:font/ttf;base64,${readFileSync(WEB_FONT_FILE).toString('base64')}`;
  return html.replace('FONT_DATA_URI', uri);
}

export function job(html: string, page: Partial<PageOptions> = {}, css: string | null = null): RenderJob {
  return {
    html,
    css,
    page: { mode: 'print', format: 'A4', orientation: 'portrait', margins: '20mm', ...page },
    watermark: false,
  };
}

export interface Rendered {
  pdf: Buffer;
  file: string;
  warnings: Warning[];
}

/** Renders through the real engine (Renderer: pool, resource guard, limits) and keeps each PDF as a file. */
export class Harness {
  private constructor(
    private readonly renderer: Renderer,
    private readonly dir: string,
  ) {}

  static async start(): Promise<Harness> {
    const dir = mkdtempSync(join(tmpdir(), 'quire-print-'));
    const config = loadConfig({}, { dataDir: dir, renderPoolSize: 1 });
    return new Harness(await Renderer.start(config), dir);
  }

  async render(strategy: ModeStrategy, renderJob: RenderJob): Promise<Rendered> {
    const result = await this.renderer.render(renderJob, strategy);
    const file = join(this.dir, `${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, result.pdf);
    return { pdf: result.pdf, file, warnings: result.warnings };
  }

  async close(): Promise<void> {
    await this.renderer.close();
  }
}

export function pageCount(file: string): number {
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** Page sizes in points, rounded to whole points. */
export function pageSizes(file: string): string[] {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '999', file], { encoding: 'utf8' });
  return [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm)].map(
    (m) => `${Math.round(Number(m[1]))}x${Math.round(Number(m[2]))}`,
  );
}

export function pageText(file: string, page: number): string {
  return execFileSync('pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], {
    encoding: 'utf8',
  });
}

/** Names of the fonts embedded in the PDF (pdffonts, subset prefix removed). */
export function fontNames(file: string): string[] {
  const out = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  return out
    .split('\n')
    .slice(2)
    .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, '') ?? '')
    .filter((name) => name !== '');
}
