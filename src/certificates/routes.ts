import { Type } from 'typebox';
import { authOf, requireManager } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, ErrorResponse, IdParams, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { pick } from '../shared/pick.js';
import { EXAMPLE_PASSPHRASE, EXAMPLE_PKCS12_BASE64 } from './example.js';
import type { CertificateRow } from './repository.js';
import { listCertificates } from './repository.js';
import {
  type CertificateServiceDeps,
  MAX_CERTIFICATES,
  MAX_PKCS12_BYTES,
  removeCertificate,
  uploadCertificate,
} from './service.js';

const TAGS = ['Certificates'];
const ROLES_TEXT =
  'Uploading and deleting need an admin live key or an admin or owner dashboard session; any key (a test key too) may list.';

const CertificateSchema = named(
  'Certificate',
  Type.Object({
    id: Type.String({ description: 'Use it as `sign.certificate_id`' }),
    name: Type.String(),
    subject: Type.String({
      description: 'The signing certificate’s subject, e.g. `CN=Ada Lovelace, O=Example, C=DE`',
    }),
    issuer: Type.String(),
    not_before: DateTime,
    not_after: DateTime,
    fingerprint_sha256: Type.String({
      description: 'SHA-256 of the signing certificate (DER), lowercase hex',
    }),
  }),
);

const UploadCertificateBody = named(
  'UploadCertificateRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100, description: 'A label for the dashboard and lists' }),
      pkcs12_base64: Type.String({
        minLength: 1,
        description: `A PKCS#12 (.p12/.pfx) file in standard base64, at most ${MAX_PKCS12_BYTES / 1024} KB: an RSA private key (2048 bits or more), its certificate (valid now, with a key usage that allows signing) and optionally the issuing chain. Read off the main thread within time and memory limits.`,
      }),
      passphrase: Type.String({
        maxLength: 1000,
        description: 'Opens the file; used once and never stored, logged or returned',
      }),
    },
    { additionalProperties: false },
  ),
);

/** The row's own columns under their own names: the API object is a subset of the row. */
function present(row: CertificateRow) {
  return pick(row, ['id', 'name', 'subject', 'issuer', 'not_before', 'not_after', 'fingerprint_sha256']);
}

/** GET/POST /certificates, DELETE /certificates/<id> (extension; tag "Certificates"). */
export function registerCertificateRoutes(app: App, deps: CertificateServiceDeps): void {
  app.get(
    '/certificates',
    {
      schema: {
        tags: TAGS,
        operationId: 'listCertificates',
        summary: 'Extension: the team’s signing certificates (never their keys)',
        description: `${ROLES_TEXT} Use one as \`sign.certificate_id\` on POST /v1/pdf, a template's settings or a batch. Errors: \`unauthorized\`, \`rate_limited\`.`,
        response: { 200: Type.Object({ data: Type.Array(CertificateSchema) }), ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: (await listCertificates(deps.db, authOf(request).team.id)).map(present) };
    },
  );

  app.post(
    '/certificates',
    {
      schema: {
        tags: TAGS,
        operationId: 'uploadCertificate',
        summary: 'Extension: upload a PKCS#12 signing certificate for `sign`',
        description: `${ROLES_TEXT} At most ${MAX_CERTIFICATES} per team (402 plan_limit_reached). The private key is stored encrypted with the server secret. Errors: \`invalid_request\` (a damaged file, a wrong passphrase, an expired or not-yet-valid certificate, a key without signing usage or a non-RSA key; \`details.field\` is \`pkcs12_base64\` or \`passphrase\` and \`details.reason\` says which), \`plan_limit_reached\` (the 10 certificates), \`forbidden\` (a test key, or a member session).`,
        body: withExamples(UploadCertificateBody, {
          example: {
            summary: 'A self-signed example certificate (its key is public: for trying only)',
            value: { name: 'Example', pkcs12_base64: EXAMPLE_PKCS12_BASE64, passphrase: EXAMPLE_PASSPHRASE },
          },
        }),
        response: { 201: CertificateSchema, 402: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'upload certificates');
      const row = await uploadCertificate(deps, auth, request.body);
      reply.code(201).header('cache-control', 'no-store');
      return present(row);
    },
  );

  app.delete(
    '/certificates/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteCertificate',
        summary: 'Extension: delete a certificate and its key; documents it signed stay signed',
        description: `${ROLES_TEXT} Queued documents and batches that name it fail with invalid_request. Errors: \`not_found\` (no such certificate in this team), \`forbidden\` (a test key, or a member session).`,
        params: IdParams,
        response: { 204: Type.Null(), 404: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = requireManager(request, 'delete certificates');
      await removeCertificate(deps, auth.team.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
