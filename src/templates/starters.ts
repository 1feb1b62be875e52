import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../accounts/index.js';
import type { ThumbnailMaker } from '../documents/index.js';
import type { Production } from '../production/index.js';
import { packageRoot } from '../shared/package-root.js';
import type { TemplateSettings } from './settings.js';
import { thumbnailSlot } from './thumbnails.js';

/**
 * The template gallery (extension): starters shipped in the repository as three files
 * each under src/templates/starters/ — `<id>.liquid` (the HTML), `<id>.css`, `<id>.json` (name,
 * description, print-mode settings, sample data, and optionally `base_css`: a stylesheet of the folder that
 * is laid before the starter's own, so that starters of one family share one look; a user's template
 * gets the two as one stylesheet). They use only fonts Quire installs (Noto, Liberation),
 * so they render the same offline. A user makes a template from one with the ordinary POST /templates.
 */
export interface Starter {
  id: string;
  name: string;
  description: string;
  html: string;
  css: string;
  settings: TemplateSettings;
  sample_data: Record<string, unknown>;
}

/** Read from the source tree's place in every layout (the server bundle copies no assets; the image copies the folder). */
const STARTERS_DIR = ['src', 'templates', 'starters'];

let loaded: readonly Starter[] | undefined;

/** Every starter, in the gallery's order (the `order` of its JSON, then its id); read once. */
export function listStarters(): readonly Starter[] {
  loaded ??= readStarters(path.join(packageRoot(), ...STARTERS_DIR));
  return loaded;
}

export function findStarter(id: string): Starter | null {
  return listStarters().find((s) => s.id === id) ?? null;
}

function readStarters(dir: string): Starter[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return []; // a layout without the folder has an empty gallery rather than failing to start
  }
  const starters = files
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const id = f.slice(0, -'.json'.length);
      const meta = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Omit<
        Starter,
        'id' | 'html' | 'css'
      > & {
        order?: number;
        base_css?: string;
      };
      const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
      const css = (meta.base_css ? `${read(`${meta.base_css}.css`)}\n` : '') + read(`${id}.css`);
      return { order: meta.order ?? 100, starter: starterOf(id, meta, read(`${id}.liquid`), css) };
    });
  return starters
    .sort((a, b) => a.order - b.order || a.starter.id.localeCompare(b.starter.id))
    .map((s) => s.starter);
}

function starterOf(
  id: string,
  meta: Omit<Starter, 'id' | 'html' | 'css'>,
  html: string,
  css: string,
): Starter {
  return {
    id,
    name: meta.name,
    description: meta.description,
    html,
    css,
    settings: meta.settings,
    sample_data: meta.sample_data,
  };
}

/**
 * Page 1 of each starter as a PNG (the gallery's thumbnails), rendered on first request through the one
 * production use case in the asking team's render slot, then kept for the life of the process: starters
 * change only with a new release. Concurrent first requests share one rendering.
 */
export class StarterThumbnails {
  private readonly cache = new Map<string, Promise<Buffer>>();
  /**
   * One starter renders at a time: a gallery asks for every thumbnail at once, and in parallel they would
   * take all of the team's render slots (its own requests would get rate_limited meanwhile).
   */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      production: Pick<Production, 'produce'>;
      make: ThumbnailMaker;
      /** Aborts when the server begins to shut down. */
      shutdown: AbortSignal;
    },
  ) {}

  forStarter(starter: Starter, caller: { teamId: string; plan: Plan }): Promise<Buffer> {
    const cached = this.cache.get(starter.id);
    if (cached) return cached;
    const work = this.queue.then(() => this.render(starter, caller));
    this.queue = work.catch(() => {});
    this.cache.set(starter.id, work);
    // A failure (a busy renderer) is not remembered: the next request tries again.
    work.catch(() => this.cache.delete(starter.id));
    return work;
  }

  private async render(starter: Starter, caller: { teamId: string; plan: Plan }): Promise<Buffer> {
    const { margin, ...page } = starter.settings;
    const produced = await this.deps.production.produce({
      caller,
      request: {
        html: starter.html,
        css: starter.css,
        data: starter.sample_data,
        ...(page.mode ? { mode: page.mode } : {}),
        ...(page.format ? { format: page.format } : {}),
        ...(page.orientation ? { orientation: page.orientation } : {}),
        ...(margin ? { margins: margin } : {}),
      },
      purpose: { kind: 'thumbnail' },
      test: false,
      ...thumbnailSlot(this.deps.shutdown),
    });
    return this.deps.make(produced.file);
  }
}
