import { AppError } from '../shared/errors.js';
import type { BatchRequest } from './schema.js';
import type { ItemInput } from './service.js';

/** The rows of a `spreadsheet` batch as items. */
export function spreadsheetItems(
  _spreadsheet: NonNullable<BatchRequest['spreadsheet']>,
  _maxRows: number,
): ItemInput[] {
  throw new AppError('invalid_request', 'Spreadsheet batches are not available yet; send "items".');
}
