import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { decodeBase64 } from '../shared/base64.js';
import type { Clock } from '../shared/clock.js';
import { type RateCounter, spendBudget } from '../shared/rate-counter.js';
import { INBOUND_PROFILES } from './plan.js';
import type { ReceivedEInvoices } from './pool.js';
import { ParseAnswer, ValidationAnswer } from './schemas.js';

/** Spec "Limits" treats these like previews: 30 per minute per team and key mode (README: E-invoice check). */
export const EINVOICE_CHECKS_PER_MIN = 30;

const content = Type.String({
  minLength: 1,
  description:
    'The received e-invoice in standard base64: a CII, UBL or KSeF FA(3) XML, or a Factur-X/ZUGFeRD PDF with its XML attached. Read off the main thread within 10 s; anything else is invalid_request with details.field = content_base64 and a message saying what was found.',
});
const filename = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'The file name, shown back in messages',
});

const ValidateBody = Type.Object(
  {
    filename,
    content_base64: content,
    profile: Type.Optional(
      Type.Union(
        INBOUND_PROFILES.map((p) => Type.Literal(p)),
        {
          description:
            "Check as this profile instead of the one the document declares (e.g. `peppol` for a Peppol invoice that declares neither Peppol's CustomizationID nor its ProfileID).",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const ParseBody = Type.Object({ filename, content_base64: content }, { additionalProperties: false });

const SAMPLE_XML = Buffer.from(
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
).toString('base64');

/** The request examples of both endpoints: they take the same file. */
const XML_EXAMPLES = {
  xml: { summary: 'A UBL invoice (base64)', value: { filename: 'invoice.xml', content_base64: SAMPLE_XML } },
};

export interface InboundRouteDeps {
  einvoices: ReceivedEInvoices;
  rate: RateCounter;
  clock: Clock;
}

async function spendCheck(deps: InboundRouteDeps, auth: ReturnType<typeof authOf>): Promise<void> {
  await spendBudget(deps.rate, {
    key: `einvoices:checks:${auth.team.id}:${auth.mode}`,
    limit: EINVOICE_CHECKS_PER_MIN,
    nowMs: deps.clock.now().getTime(),
    message: `More than ${EINVOICE_CHECKS_PER_MIN} e-invoice checks per minute.`,
  });
}

/** What tells the endpoints apart: both take the same file, spend one budget and answer from the pool. */
interface CheckRoute<Body extends TObject> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  body: Body;
  answer: TSchema;
  /** Runs in the fair queue's lane of `team`, the team that sent the file. */
  check: (team: string, bytes: Uint8Array, body: Static<Body>) => Promise<unknown>;
}

function registerCheck<Body extends TObject>(
  app: App,
  deps: InboundRouteDeps,
  route: CheckRoute<Body>,
): void {
  app.post(
    route.url,
    {
      schema: {
        tags: ['E-invoices'],
        operationId: route.operationId,
        summary: route.summary,
        description: route.description,
        body: withExamples(route.body, XML_EXAMPLES),
        response: { 200: route.answer, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await spendCheck(deps, auth);
      const body = request.body as Static<Body> & { content_base64: string };
      return route.check(auth.team.id, decodeBase64(body.content_base64), body);
    },
  );
}

/**
 * POST /e-invoices/validate and /e-invoices/parse (extensions, README "Received e-invoices: validate and
 * parse"): read an e-invoice a team received. Counted like previews (a rate budget, never a document or
 * usage); the work runs on the e-invoice worker pool, in the sending team's share of it.
 */
export function registerEInvoiceInboundRoutes(app: App, deps: InboundRouteDeps): void {
  registerCheck(app, deps, {
    url: '/e-invoices/validate',
    operationId: 'validateEInvoice',
    summary: 'Validate a received e-invoice with the official rules (extension)',
    description:
      "Extension. XSD plus the official schematron rules (CEN EN 16931 1.3.16 for CII and UBL, KoSIT XRechnung 2.5.0, Factur-X 1.09.2 profiles, OpenPeppol BIS Billing 3.0.21) run in process with the rule ids the official validators report; `rules` names the rule sets and releases that ran. A UBL document in Peppol's billing process (ProfileID) is checked with the Peppol rules whatever its CustomizationID says. `valid` is false when any finding has severity error; warnings and information messages never fail. For a PDF, `pdf` tells how the XML is attached and whether the PDF claims PDF/A-3 (structural checks only, no veraPDF). An invalid invoice is a 200 with `valid: false`. Errors: `invalid_request` (not base64, or not an XML e-invoice or a PDF with one; the message says what was found; or a file whose check passes its time or memory limit), `rate_limited` (30 checks a minute per team and mode).",
    body: ValidateBody,
    answer: ValidationAnswer,
    check: (team, bytes, body) => deps.einvoices.validate(team, bytes, body.profile),
  });
  registerCheck(app, deps, {
    url: '/e-invoices/parse',
    operationId: 'parseEInvoice',
    summary: "Read a received e-invoice into Quire's e-invoice model (extension)",
    description:
      "Extension. The document as the `e_invoice` object POST /pdf accepts (`standard`, `profile`, `invoice`), amounts as exact decimal strings, with the document's own totals beside it and warnings for what the model cannot hold. Nothing is checked: use /e-invoices/validate for a verdict. Errors: `invalid_request` (not base64, or not an XML e-invoice or a PDF with one, or a file whose check passes its time or memory limit), `rate_limited` (30 checks a minute per team and mode).",
    body: ParseBody,
    answer: ParseAnswer,
    check: (team, bytes) => deps.einvoices.parse(team, bytes),
  });
}
