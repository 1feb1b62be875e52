import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { makePkcs12 } from '../../helpers/certificates.js';
import { npmPack } from '../../helpers/npm-pack.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { makeUser } from '../users/dashboard.js';

const run = promisify(execFile);
// The repository itself, also when this file runs from the compiled mirror (scripts/compile-tests.mjs), whose
// clients/typescript holds links that npm pack leaves out of the tarball: package.json links to the real one.
const root = path.dirname(realpathSync(path.resolve(import.meta.dirname, '../../../package.json')));
const clientDir = path.join(root, 'clients/typescript');
const outside = path.join(import.meta.dirname, 'outside');

/**
 * The client as someone outside the repository gets it. `npm pack` builds the tarball
 * (prepack: ESM and CommonJS with declarations); a new project installs it with npm, offline (its one
 * dependency, openapi-fetch, packed from this checkout), type-checks and compiles a program against the
 * installed types with tsc, and runs it against a real server on loopback: every resource method once.
 */
describe('the packed client installed into a separate project', () => {
  let server: TestServer;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let tarball: string;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'quire-client-user-'));
    const tarballs = mkdtempSync(path.join(tmpdir(), 'quire-client-tgz-'));
    tarball = await npmPack(clientDir, tarballs);
    const dependencies = await Promise.all(
      ['openapi-fetch', 'openapi-typescript-helpers'].map((name) =>
        npmPack(path.join(root, 'node_modules', name), tarballs),
      ),
    );
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'invoicing-app', private: true, type: 'module' }),
    );
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...dependencies],
      { cwd: project },
    );
    // E-invoice checks get the time a loaded machine needs (their 10 s limit is tested in einvoice-inbound).
    server = await startTestServer({ allowPrivateWebhooks: true, einvoiceCheckTimeoutMs: 120_000 });
    const team = await server.team('growth');
    const member = await makeUser(server, team.team.id, 'member', 'colleague@tour.example');
    env = {
      ...process.env,
      QUIRE_BASE: server.base,
      QUIRE_KEY: team.live,
      QUIRE_MEMBER_ID: member.id,
      QUIRE_P12_BASE64: makePkcs12({ passphrase: 'tour secret' }).toString('base64'),
      QUIRE_P12_PASSPHRASE: 'tour secret',
      QUIRE_EINVOICE_FILE: path.join(root, 'tools/einvoice-validate/samples/peppol/base-example.xml'),
    };
  });
  after(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('is named quire-client-<version>.tgz and ships the ESM and CommonJS builds with types, not the sources', async () => {
    assert.match(path.basename(tarball), /^quire-client-\d+\.\d+\.\d+\.tgz$/);
    const installed = path.join(project, 'node_modules/@quire/client');
    for (const file of [
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
    ]) {
      assert.ok(existsSync(path.join(installed, file)), `${file} is in the package`);
    }
    assert.ok(!existsSync(path.join(installed, 'src')), 'the TypeScript sources are not shipped');
    assert.ok(readdirSync(path.join(installed, 'dist/esm')).includes('schema.d.ts'));
  });

  it('type-checks a program against the installed types and runs every resource method once', async () => {
    copyFileSync(path.join(outside, 'tour.ts'), path.join(project, 'tour.ts'));
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    await run(
      process.execPath,
      [
        tsc,
        ...['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
        ...['--typeRoots', path.join(root, 'node_modules/@types'), '--types', 'node', 'tour.ts'],
      ],
      { cwd: project },
    ).catch((error: { stdout?: string }) => assert.fail(`tsc refused tour.ts:\n${error.stdout}`));
    const { stdout } = await run(process.execPath, ['tour.js'], { cwd: project, env, timeout: 480_000 });
    try {
      checkTour(JSON.parse(stdout));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nWhat the program saw: ${stdout}`);
    }
  });

  it('works from CommonJS (require) with the same error type', async () => {
    copyFileSync(path.join(outside, 'require.cjs'), path.join(project, 'require.cjs'));
    const { stdout } = await run(process.execPath, ['require.cjs'], { cwd: project, env });
    assert.deepEqual(JSON.parse(stdout), { quireError: true, code: 'invalid_api_key' });
  });
});

/** What the tour program (outside/tour.ts) must have seen. */
// biome-ignore lint/suspicious/noExplicitAny: the program's JSON output
function checkTour(seen: any): void {
  assert.equal(seen.me, seen.account);
  assert.equal(seen.usagePlan, 'growth');
  assert.equal(seen.keyShownOnce, true);
  assert.ok(seen.keyNames.includes('from the tour'));
  assert.equal(seen.keyRevoked, true);
  assert.equal(seen.memberRole, 'admin');
  assert.equal(seen.removedMember, true);
  assert.equal(seen.membersAfterRemove, seen.memberCount - 1);
  assert.deepEqual(seen.invitations, ['new@tour.example']);
  assert.equal(seen.invitationsAfterDelete, 0);
  assert.deepEqual(seen.assetNames, ['Tour logo']);
  assert.equal(seen.assetMagic, '\x89PNG');
  assert.equal(seen.assetsAfterDelete, 0);

  // Templates: pages of one, iterated to the end (limit/offset with has_more).
  assert.equal(seen.templatePages, 1);
  assert.deepEqual(seen.templateNames, ['Tour invoice', 'Tour letter']);
  assert.equal(seen.templateVersion, 2);
  assert.deepEqual(seen.versions, [2, 1]);
  assert.equal(seen.pinned, 1);
  assert.equal(seen.retrievedVersion, 2);
  assert.deepEqual([...seen.fields].sort(), ['customer.name', 'number']);
  assert.equal(seen.previewType, 'application/pdf');
  assert.equal(seen.draftMagic, '%PDF');

  assert.deepEqual(seen.pdf, { magic: '%PDF', pages: 1 });
  assert.equal(seen.linkedMagic, '%PDF');
  assert.equal(seen.waited, 'succeeded');
  assert.equal(seen.retrieved, 'succeeded');
  assert.equal(seen.activity, true);
  // Documents: `before` cursors, a page of one at a time, every document once.
  assert.ok(seen.documentsIterated >= 3, `iterated ${seen.documentsIterated}`);
  assert.equal(seen.documentsDistinct, seen.documentsIterated);

  assert.equal(seen.spreadsheet.rows, 3);
  assert.deepEqual(seen.spreadsheet.columns, ['number', 'customer.name']);
  assert.equal(seen.batch.succeeded, 3);
  assert.equal(seen.batchRetrieved, 'completed');
  // Batch items: `after` cursors, pages of two.
  assert.deepEqual(seen.batchItems, ['succeeded', 'succeeded', 'succeeded']);
  assert.equal(seen.zipMagic, 'PK\x03\x04');
  assert.equal(seen.batchesListed, 1);
  assert.equal(seen.canceled, true);

  assert.deepEqual(seen.webhookUrls, [true]);
  assert.equal(seen.webhookRetrieved, true);
  assert.equal(seen.webhookUpdated, 'tour');
  assert.deepEqual(seen.event, { type: 'pdf.created', test: true, hasDocumentId: true });
  assert.deepEqual(seen.tampered, ['webhook_signature_invalid', 'mismatch']);
  assert.equal(seen.deliveryListed, true);
  assert.equal(seen.retried, 'string');
  assert.equal(seen.rotated, true);
  assert.equal(seen.webhooksAfterDelete, 0);

  // Extensions: certificates, received e-invoices, the starter gallery, daily usage.
  assert.equal(seen.certificate.subject, 'CN=Quire Test Signer, O=Quire Tests, C=DE');
  assert.match(seen.certificate.fingerprint, /^[0-9a-f]{64}$/);
  assert.deepEqual(seen.certificateNames, ['Tour signer']);
  assert.equal(seen.certificatesAfterDelete, 0);
  assert.deepEqual(seen.eInvoiceReport, { valid: true, standard: 'peppol', errors: 0 });
  assert.equal(seen.eInvoicePeppolProfile, 'peppol');
  assert.deepEqual(seen.eInvoiceParsed, { number: 'Snippet1', due: '1656.25' });
  assert.deepEqual(seen.eInvoiceRefused, ['invalid_request', 'content_base64']);
  assert.deepEqual(seen.starterIds, ['certificate', 'invoice', 'letter', 'quote', 'receipt', 'report']);
  assert.equal(seen.fromStarter, true);
  assert.equal(seen.starterThumbnail, '\x89PNG');
  assert.deepEqual(seen.starterMissing, ['not_found', 404]);
  assert.ok(seen.daily.live > 0, 'renders of the tour are on the daily chart');
  assert.equal(seen.daily.live, seen.daily.docsUsed, 'the live bars add up to the period’s usage');
  assert.equal(seen.daily.lastDay, seen.daily.to);
  assert.deepEqual(seen.dailyRefused, ['invalid_request', 'from']);

  assert.equal(seen.error.code, 'template_not_found');
  assert.equal(seen.error.status, 404);
  assert.match(seen.error.requestId, /^req_[0-9a-f]{32}$/);
  assert.equal(seen.templateDeleted, true);
}
