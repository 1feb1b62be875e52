import { Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { errorResponses, fileResponse, withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, DateTime, ErrorResponse, IdParams, Nullable, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import type { BlobStore } from '../storage/index.js';
import { type BrandLinks, brandResource, brandUrl } from './links.js';
import { type BrandAssetRow, findBrandAsset, listBrandAssets } from './repository.js';
import { type BrandServiceDeps, deleteBrandAsset, uploadBrandAsset } from './service.js';

const TAGS = ['Brand assets'];

export interface BrandRouteDeps {
  service: BrandServiceDeps;
  blobs: Pick<BlobStore, 'read'>;
  links: BrandLinks;
}

const BrandAssetSchema = named(
  'BrandAsset',
  Type.Object({
    id: Type.String(),
    kind: Type.Union([Type.Literal('logo'), Type.Literal('font')]),
    name: Type.String({
      description: "The logo's label, or the font's name in templates (brand.fonts.<name>)",
    }),
    content_type: Type.String({ description: 'image/png, image/jpeg, font/woff2, font/ttf or font/otf' }),
    bytes: Type.Integer(),
    family: Nullable(Type.String({ description: "The font's family name from the file; null for a logo" })),
    url: Type.String({ description: 'Signed link (no key needed, no expiry; a new upload gets a new link)' }),
    created_at: DateTime,
  }),
);

const UploadBrandAssetBody = named(
  'UploadBrandAsset',
  Type.Object(
    {
      kind: Type.Union([Type.Literal('logo'), Type.Literal('font')]),
      name: Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Logo: a label. Font: the name templates use (letter first, then letters, digits or _, at most 64).',
      }),
      content_base64: Type.String({
        minLength: 1,
        description:
          'The file in standard base64. Logo: PNG, JPEG or SVG (stored as PNG), at most 2 MB; an SVG may expand to at most 50,000 elements. Font: WOFF2, TTF or OTF, at most 3 MB; a WOFF2 table directory may declare at most 30 MB. Read off the main thread within time and memory limits (docs/security.md "Files clients upload").',
      }),
    },
    { additionalProperties: false },
  ),
);

// Named `id` like DELETE's parameter (one OpenAPI path): the asset id plus the extension, as in the link.
const FileParams = Type.Object({
  id: Type.String({
    pattern: '^[0-9a-fA-F-]{36}\\.(png|jpg|woff2|ttf|otf)$',
    description: 'The asset id plus its extension (`<id>.png`), as in the signed link',
  }),
});

const EXAMPLE_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#1f6feb"/></svg>',
).toString('base64');

function present(row: BrandAssetRow, links: BrandLinks) {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    content_type: row.content_type,
    bytes: Number(row.bytes),
    family: row.family,
    url: brandUrl(row, links),
    created_at: row.created_at,
  };
}

/** GET/POST /brand-assets, DELETE /brand-assets/<id> (an extension of the spec, tag "Brand assets"). */
export function registerBrandRoutes(app: App, deps: BrandRouteDeps): void {
  const { db } = deps.service;
  app.get(
    '/brand-assets',
    {
      schema: {
        tags: TAGS,
        operationId: 'listBrandAssets',
        summary: "The team's logo and fonts with their signed links",
        description:
          'The team’s logos and fonts with the names templates use them by and their signed links. Errors: `invalid_api_key` (missing, malformed, unknown or revoked key).',
        response: { 200: Type.Object({ data: Type.Array(BrandAssetSchema) }), ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      reply.header('cache-control', 'no-store');
      return { data: (await listBrandAssets(db, auth.team.id)).map((row) => present(row, deps.links)) };
    },
  );

  app.post(
    '/brand-assets',
    {
      schema: {
        tags: TAGS,
        operationId: 'uploadBrandAsset',
        summary:
          'Upload the logo (replaces the current one) or a font (replaces the one of that name); live keys only',
        description:
          'Uploads a logo (PNG, JPEG or SVG, stored as PNG) or a font (WOFF2, TTF or OTF) in base64; the file is read off the main thread within size and time limits. Templates then use it by name. Live keys only. Errors: `invalid_request` (details.field; e.g. a file that cannot be read), `payload_too_large`, `plan_limit_reached` (at most 20 fonts), `forbidden` (a test key).',
        body: withExamples(UploadBrandAssetBody, {
          logo: {
            summary: 'An SVG logo (stored as PNG)',
            value: { kind: 'logo', name: 'Logo', content_base64: EXAMPLE_SVG },
          },
        }),
        response: { 201: BrandAssetSchema, 402: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const row = await uploadBrandAsset(deps.service, authOf(request), request.body);
      reply.code(201).header('cache-control', 'no-store');
      return present(row, deps.links);
    },
  );

  app.delete(
    '/brand-assets/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteBrandAsset',
        summary: 'Delete a logo or font; its link then answers 404; live keys only',
        description:
          'Deletes a logo or font: templates that use it by name render without it from now on, and its signed link answers 404. Live keys only. Errors: `not_found` (no such asset in this team), `forbidden` (a test key), `invalid_request` (the id is not a UUID).',
        params: IdParams,
        response: { 204: Type.Null(), 404: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      await deleteBrandAsset(deps.service, authOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** GET /brand-assets/<id>.<ext>?sig=… (spec: Thumbnails and brand assets; no key, `sig` only). */
export function registerSignedBrandRoutes(app: App, deps: BrandRouteDeps): void {
  app.get(
    '/brand-assets/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'getBrandAssetFile',
        summary: 'A logo or font file (signed link)',
        description:
          'The file of a logo or font through its signed `url` (GET /brand-assets lists them). Templates use assets by name; this link is for showing or checking the file. Needs no key. Errors: `forbidden` (the signature does not match), `not_found` (the asset was deleted), `invalid_request`.',
        security: [],
        params: FileParams,
        querystring: Type.Object({ sig: Type.Optional(Type.String()) }, { additionalProperties: true }),
        response: {
          200: fileResponse('The logo or font', [
            'image/png',
            'image/jpeg',
            'font/woff2',
            'font/ttf',
            'font/otf',
          ]),
          ...errorResponses(400, 403, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const [id = '', ext = ''] = request.params.id.split('.');
      if (!deps.links.signer.verifyPermanent(brandResource(id, ext), request.query.sig))
        throw new AppError('forbidden', 'The link signature is invalid.');
      const row = await findBrandAsset(deps.service.db, id);
      const file = row && row.ext === ext ? await deps.blobs.read(row.blob_key) : null;
      if (!row || !file) throw new AppError('not_found', 'This brand asset was deleted.');
      return reply
        .header('content-type', row.content_type)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
