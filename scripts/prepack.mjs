// `npm pack` / `npm publish` of the server package (quire-pdf), run by npm as `prepack`; `--clean` (postpack)
// removes what it wrote. The tarball is what `npm install -g ./quire-pdf-x.y.z.tgz` installs (docs/deployment.md:
// Install with npm), so before packing this:
//   1. checks that the built parts a server needs at run time exist (package.json `files` lists them): the
//      server bundle, the dashboard and the compiled e-invoice rules — a tarball without them would install
//      and then fail at start;
//   2. writes COMMIT (GET /version reports it; an installed package has no .git). A COMMIT that was there
//      before (the container build writes one) is put back by `--clean`, and only a COMMIT this script wrote
//      is removed: the checkout is left as it was.
// No npm-shrinkwrap.json: npm ignores one in a tarball installed by path, and from a registry it installs every
// platform's optional binaries it lists (@node-rs/argon2, @resvg/resvg-js). The dependencies whose `overrides`
// keep Node 20 free of EBADENGINE (package.json: fastify's cookie, @fastify/static's content-disposition) are
// bundled instead (`bundleDependencies`): an installed package's own `overrides` are not applied.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMMIT = path.join(root, 'COMMIT');
/** What prepack replaced, for `--clean`: `{ before: <the earlier COMMIT's text> | null }`. */
const REPLACED = path.join(root, '.tmp', 'prepack-commit.json');

/** Run-time files that only a build makes, and the command that makes each. */
const BUILT = [
  ['dist/server/main.js', 'npm run build'],
  ['dist/dashboard/index.html', 'npm run build'],
  [
    'dist/einvoice-rules/en16931__EN16931-UBL-validation.xslt.sef.json',
    'node scripts/compile-einvoice-rules.mjs',
  ],
];

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return '';
  }
}

/** Undoes what prepack wrote: the earlier COMMIT back, or none; nothing when prepack wrote none. */
function clean() {
  if (!existsSync(REPLACED)) return;
  const { before } = JSON.parse(readFileSync(REPLACED, 'utf8'));
  if (before === null) rmSync(COMMIT, { force: true });
  else writeFileSync(COMMIT, before);
  rmSync(REPLACED);
}

if (process.argv.includes('--clean')) {
  clean();
} else {
  const missing = BUILT.filter(([file]) => !existsSync(path.join(root, file)));
  if (missing.length > 0) {
    const commands = [...new Set(missing.map(([, command]) => command))].join(' && ');
    process.stderr.write(
      `npm pack: ${missing.map(([file]) => file).join(', ')} missing — run ${commands} first (or npm run bootstrap).\n`,
    );
    process.exit(1);
  }
  const commit = gitCommit();
  if (commit) {
    mkdirSync(path.dirname(REPLACED), { recursive: true });
    // A pack interrupted before its --clean keeps the COMMIT that was there before it, not its own.
    if (!existsSync(REPLACED)) {
      const before = existsSync(COMMIT) ? readFileSync(COMMIT, 'utf8') : null;
      writeFileSync(REPLACED, JSON.stringify({ before }));
    }
    writeFileSync(COMMIT, `${commit}\n`);
  }
}
