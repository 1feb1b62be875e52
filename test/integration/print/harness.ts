import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { loadConfig } from '../../../src/config/config.js';
import { Renderer } from '../../../src/render/index.js';
import type { ModeStrategy, PageOptions, RenderJob } from '../../../src/render/types.js';
import type { Warning } from '../../../src/shared/warnings.js';
import { pageSizes } from '../../helpers/pdf.js';

export const FIXTURES = new URL('../../fixtures/print/', import.meta.url);

/** A web font for the data-URI fixture: Liberation Mono Italic (fonts-liberation2, installed by bootstrap). */
export const WEB_FONT_FILE = '/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf';

/**
 * A fixture's HTML. A stylesheet link to a file of the fixtures folder is replaced by a <style> with its
 * rules (the renderer gets the HTML alone, with no base URL to load it from), so fixtures can share one;
 * FONT_DATA_URI is replaced by a data: URI of WEB_FONT_FILE (kept out of the repo).
 */
export function fixture(name: string): string {
  const html = readFileSync(new URL(name, FIXTURES), 'utf8').replace(
    /<link rel="stylesheet" href="([\w-]+\.css)">/g,
    (_, sheet: string) => `<style>\n${readFileSync(new URL(sheet, FIXTURES), 'utf8')}</style>`,
  );
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
  warnings: Warning[];
}

/** Renders through the real engine (Renderer: pool, resource guard, limits). */
export class Harness {
  private constructor(private readonly renderer: Renderer) {}

  static async start(): Promise<Harness> {
    const dir = mkdtempSync(join(tmpdir(), 'quire-print-'));
    const config = loadConfig({}, { dataDir: dir, renderPoolSize: 1 });
    return new Harness(await Renderer.start(config));
  }

  async render(strategy: ModeStrategy, renderJob: RenderJob): Promise<Rendered> {
    const { pdf, warnings } = await this.renderer.render(renderJob, strategy);
    return { pdf, warnings };
  }

  async close(): Promise<void> {
    await this.renderer.close();
  }
}

/**
 * A Harness for the tests of the describe block this is called in: started before them and closed after
 * them, so each print suite renders through one engine of its own.
 */
export function harnessForSuite(): Pick<Harness, 'render'> {
  let harness: Harness | undefined;
  before(async () => {
    harness = await Harness.start();
  });
  after(async () => harness?.close());
  return {
    render(strategy, renderJob) {
      if (!harness) throw new Error("the harness starts in the suite's before hook");
      return harness.render(strategy, renderJob);
    },
  };
}

/** Page sizes as "WxH" in whole points, one per page. */
export async function sizesInPoints(pdf: Buffer): Promise<string[]> {
  return (await pageSizes(pdf)).map((size) => `${Math.round(size.width)}x${Math.round(size.height)}`);
}
