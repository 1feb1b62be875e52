import { type TSchema, Type } from 'typebox';
import { LimitQuery, Nullable } from './schemas.js';

/**
 * The query fields of a newest-first list read in pages (documents, batches, webhook deliveries): `limit`,
 * and `before` as the previous page's `next_before` gave it.
 */
export const BEFORE_PAGE_QUERY = {
  limit: LimitQuery(20),
  before: Type.Optional(Type.String({ maxLength: 200 })),
};

/** A page of such a list: its items, and the cursor of the next page (null on the last). */
export function BeforePage<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), next_before: Nullable(Type.String()) });
}
