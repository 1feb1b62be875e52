import { AppError } from './errors.js';

/**
 * The opaque `before` / `next_before` cursor of newest-first lists (documents, batches): the base64url of
 * `(created_at, id)`, so a page stays stable while rows are inserted meanwhile.
 */
export interface PageCursor {
  createdAt: string;
  id: string;
}

/** The cursor of a `before` query value, null when none was sent; anything else is invalid_request. */
export function parseBefore(value: string | undefined): PageCursor | null {
  if (value === undefined) return null;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  const match = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\|([0-9a-f-]{36})$/.exec(text);
  if (!match?.[1] || !match[2]) {
    throw new AppError(
      'invalid_request',
      'Query "before" is not a cursor this API returned; pass next_before as is.',
    );
  }
  return { createdAt: match[1], id: match[2] };
}

/**
 * `next_before` of a page read with `limit + 1` rows: the cursor of the last row shown, or null on the last
 * page.
 */
export function nextBefore(
  rows: readonly { created_at: string; id: string }[],
  limit: number,
): string | null {
  const last = rows[limit - 1];
  return rows.length > limit && last
    ? Buffer.from(`${last.created_at}|${last.id}`).toString('base64url')
    : null;
}
