import { Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, ErrorResponse, Uuid } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { TemplatePort } from '../production/index.js';
import { decodeBase64 } from '../shared/base64.js';
import { templateFields } from '../templates/index.js';
import { maxItems } from './service.js';
import type { SpreadsheetReader } from './spreadsheet.js';
import { suggestMapping } from './spreadsheet-items.js';

/** Rows shown in `preview`. */
const PREVIEW_ROWS = 5;

const ParseBody = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255 }),
    content_base64: Type.String({
      minLength: 1,
      description:
        'The CSV or XLSX file in standard base64. Read off the main thread within limits (README: Batches and spreadsheets, Security); a file past one is invalid_request with details.field and details.limit.',
    }),
    template_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);

const ParseResult = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
  columns: Type.Array(Type.String()),
  row_count: Type.Integer(),
  max_rows: Type.Integer(),
  preview: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  fields: Type.Array(Type.String()),
  mapping: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
});

/** POST /spreadsheets/parse (spec): what a sheet holds, and how its columns could map to a template's fields. */
export function registerSpreadsheetRoutes(
  app: App,
  deps: { templates: TemplatePort; untrusted: SpreadsheetReader },
): void {
  app.post(
    '/spreadsheets/parse',
    {
      schema: {
        tags: ['Batches'],
        operationId: 'parseSpreadsheet',
        summary: 'Read a CSV or XLSX file',
        description:
          'Reads a CSV or XLSX file (base64) off the main thread within limits and answers its columns, row count, the first rows and, with a `template_id`, the suggested column-to-field mapping: check a file before sending it as a batch. Nothing is stored. Errors: `invalid_request` (details.field; e.g. a file that is not CSV or XLSX), `payload_too_large`, `template_not_found`.',
        body: withExamples(ParseBody, {
          csv: {
            summary: 'A CSV file (base64)',
            value: {
              filename: 'rows.csv',
              content_base64: Buffer.from('number,customer\n1001,Ada\n').toString('base64'),
            },
          },
        }),
        response: { 200: ParseResult, 404: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { content_base64, template_id } = request.body;
      const maxRows = maxItems(auth.plan);
      const bytes = decodeBase64(content_base64);
      const sheet = await deps.untrusted.spreadsheet(auth.team.id, bytes, maxRows, 'content_base64');
      const fields =
        template_id === undefined ? [] : await fieldPaths(deps.templates, auth.team.id, template_id);
      return {
        format: sheet.format,
        columns: sheet.columns,
        row_count: sheet.rows.length,
        max_rows: maxRows,
        preview: sheet.rows
          .slice(0, PREVIEW_ROWS)
          .map((row) => Object.fromEntries(sheet.columns.map((column, i) => [column, row[i] ?? null]))),
        fields,
        mapping: suggestMapping(sheet.columns, fields),
      };
    },
  );
}

/** The template's form fields a cell can fill: scalar fields by dotted path (lists and line items need JSON). */
async function fieldPaths(templates: TemplatePort, teamId: string, templateId: string): Promise<string[]> {
  const template = await templates.resolve(teamId, templateId, undefined);
  return templateFields(template.sampleData)
    .fields.filter((field) => field.type !== 'list' && field.type !== 'line_items')
    .map((field) => field.path);
}
