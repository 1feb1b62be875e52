/** Spec "Limits": at most 10 blocked resources are listed per response; the total is still counted. */
export const MAX_LISTED_BLOCKED = 10;
/** Keeps one entry (and so the x-blocked-resources header) bounded when a URL is a long data-like string. */
const MAX_URL_CHARS = 300;

/** The refused requests of one render, each reported as "URL: reason". */
export class BlockedResources {
  private readonly listed: string[] = [];
  private readonly seen = new Set<string>();
  private total = 0;

  /** Records a refusal once per URL (a URL refused by two layers is one refused request). */
  add(url: string, reason: string): void {
    if (this.seen.has(url)) return;
    this.seen.add(url);
    this.total += 1;
    if (this.listed.length < MAX_LISTED_BLOCKED) this.listed.push(`${shorten(url)}: ${reason}`);
  }

  list(): string[] {
    return [...this.listed];
  }

  get count(): number {
    return this.total;
  }
}

function shorten(url: string): string {
  return url.length <= MAX_URL_CHARS ? url : `${url.slice(0, MAX_URL_CHARS)}…`;
}
