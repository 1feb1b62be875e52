/**
 * The MCP tools: each is one call of Quire's own REST API, so the caller's key decides what it may see and
 * spend exactly as it does over HTTP (modes, roles, rate limits, usage). Each tool's input schema is the
 * schema the REST route validates with (captured from the registered routes, routes.ts): one definition.
 */

/** One request of the REST API on the caller's behalf: in process (`/mcp`) or over HTTP. */
export type ApiCall = (request: ApiRequest) => Promise<ApiAnswer>;

export interface ApiRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  json: unknown;
}

/** The JSON Schema parts of a route, by `METHOD /v1/path` (Fastify's route pattern). */
export type RouteSchemas = Map<string, { body?: unknown; querystring?: unknown; params?: unknown }>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** The route whose schema is the tool's input: its body, querystring or params. */
  input: { route: string; part: 'body' | 'querystring' | 'params' } | null;
  call(args: Record<string, unknown>): ApiRequest;
  /** What the answer becomes (default: the REST answer as it is). */
  answer?: (json: unknown) => unknown;
}

const id = (args: Record<string, unknown>) => encodeURIComponent(String(args.id ?? ''));

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'list_templates',
    description: "The team's templates (GET /v1/templates): id, name, current version.",
    input: { route: 'GET /v1/templates', part: 'querystring' },
    call: (args) => ({ method: 'GET', url: `/v1/templates${query(args)}` }),
  },
  {
    name: 'get_template',
    description: 'One template with its current version and sample data (GET /v1/templates/{id}).',
    input: { route: 'GET /v1/templates/:id', part: 'params' },
    call: (args) => ({ method: 'GET', url: `/v1/templates/${id(args)}` }),
  },
  {
    name: 'render_document',
    description:
      'Renders a PDF from a template (template_id, data) or from html, with the options POST /v1/pdf takes. Answers the document id, page count and a signed download link (never the bytes). Test keys make test documents.',
    input: { route: 'POST /v1/pdf', part: 'body' },
    call: (args) => ({ method: 'POST', url: '/v1/pdf', body: { ...args, response: 'url' } }),
    answer: documentLink,
  },
  {
    name: 'get_document',
    description: 'One document: status, pages, and while stored a fresh signed link (GET /v1/pdf/{id}).',
    input: { route: 'GET /v1/pdf/:id', part: 'params' },
    call: (args) => ({ method: 'GET', url: `/v1/pdf/${id(args)}` }),
  },
  {
    name: 'list_documents',
    description: 'The newest documents first (GET /v1/documents); `limit` bounds the page.',
    input: { route: 'GET /v1/documents', part: 'querystring' },
    call: (args) => ({ method: 'GET', url: `/v1/documents${query(args)}` }),
  },
  {
    name: 'validate_e_invoice',
    description:
      'Validates a received e-invoice (XML, or a PDF with one) with the official rules (POST /v1/e-invoices/validate).',
    input: { route: 'POST /v1/e-invoices/validate', part: 'body' },
    call: (args) => ({ method: 'POST', url: '/v1/e-invoices/validate', body: args }),
  },
  {
    name: 'parse_e_invoice',
    description:
      "Reads a received e-invoice into Quire's e-invoice model, as POST /v1/pdf's e_invoice takes it (POST /v1/e-invoices/parse).",
    input: { route: 'POST /v1/e-invoices/parse', part: 'body' },
    call: (args) => ({ method: 'POST', url: '/v1/e-invoices/parse', body: args }),
  },
];

/** The query string of the scalar arguments (GET tools). */
function query(args: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** render_document's answer: what an assistant needs to hand the document on. */
function documentLink(json: unknown): unknown {
  const doc = (json ?? {}) as Record<string, unknown>;
  const pick = ['id', 'status', 'pages', 'url', 'expires_at', 'test', 'warnings'] as const;
  return Object.fromEntries(pick.filter((key) => key in doc).map((key) => [key, doc[key]]));
}

/** A tool's input schema: the route's, or an empty object when the route takes nothing. */
export function inputSchemaOf(tool: ToolDefinition, routes: RouteSchemas): Record<string, unknown> {
  const schema = tool.input ? routes.get(tool.input.route)?.[tool.input.part] : undefined;
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  // JSON only: TypeBox's symbol-keyed markers stay behind.
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
