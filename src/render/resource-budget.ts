/** Per-document limits on external resources (config resourceMaxCount / resourceMaxTotalBytes). */
export interface BudgetLimits {
  maxCount: number;
  maxBytes: number;
}

/**
 * What one document may still fetch: each resource is capped on its own, and this
 * caps their number and their sum, so a document cannot make the service hold an unbounded amount of
 * resource bytes. Bytes are counted as they arrive, across the document's parallel fetches; bytes of a
 * resource refused part-way stay counted (they were transferred all the same).
 */
export class ResourceBudget {
  private count = 0;
  private bytes = 0;

  constructor(private readonly limits: BudgetLimits) {}

  /** Counts one more resource; the refusal reason when the document already used its number. */
  admit(): string | null {
    if (this.count >= this.limits.maxCount) {
      return `over the document's limit of ${this.limits.maxCount} external resources`;
    }
    this.count += 1;
    return null;
  }

  /** Whether `n` more bytes still fit into the document's total. */
  fits(n: number): boolean {
    return this.bytes + n <= this.limits.maxBytes;
  }

  /** Counts `n` bytes received; false (nothing counted) when they would pass the total. */
  take(n: number): boolean {
    if (!this.fits(n)) return false;
    this.bytes += n;
    return true;
  }

  overTotal(): string {
    return `over the document's total of ${this.limits.maxBytes} bytes of external resources`;
  }
}
