import { unwrap } from '../core.js';
import type { Answer, Body } from '../types.js';
import { Resource } from './resource.js';

export type SpreadsheetPreview = Answer<'parseSpreadsheet', 200>;

/** POST /spreadsheets/parse: what a batch from a CSV/XLSX would contain, before sending it. */
export class Spreadsheets extends Resource {
  /** Columns, row count, a preview and the suggested column → field mapping for a template. */
  async parse(body: Body<'parseSpreadsheet'>): Promise<SpreadsheetPreview> {
    return unwrap(this.core.api.POST('/spreadsheets/parse', { body }));
  }
}
