import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILT = [
  'dist/server/main.js',
  'dist/dashboard/index.html',
  'dist/einvoice-rules/en16931__EN16931-UBL-validation.xslt.sef.json',
];

/** `npm pack`'s prepack and postpack (scripts/prepack.mjs) in a checkout of their own: one commit, built parts present. */
describe('prepack: COMMIT for the tarball, the checkout left as it was', () => {
  let root: string;
  let head: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root })
      .toString()
      .trim();
  const prepack = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, 'scripts', 'prepack.mjs'), ...args], {
      cwd: root,
      stdio: 'pipe',
    });
  const commitFile = () => path.join(root, 'COMMIT');

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'quire-prepack-'));
    mkdirSync(path.join(root, 'scripts'));
    copyFileSync(path.join(repoRoot, 'scripts', 'prepack.mjs'), path.join(root, 'scripts', 'prepack.mjs'));
    writeFileSync(path.join(root, 'package.json'), '{"type":"module"}\n');
    for (const file of BUILT) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), '');
    }
    git('init', '-q');
    git('add', 'package.json', 'scripts');
    git('commit', '-qm', 'one');
    head = git('rev-parse', 'HEAD');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('writes the commit for the pack and removes it afterwards', () => {
    prepack();
    assert.equal(readFileSync(commitFile(), 'utf8'), `${head}\n`);
    prepack('--clean');
    assert.equal(existsSync(commitFile()), false);
  });

  it('puts back a COMMIT that was there before (a container build writes one)', () => {
    writeFileSync(commitFile(), 'from-the-image-build\n');
    prepack();
    assert.equal(readFileSync(commitFile(), 'utf8'), `${head}\n`, 'the tarball reports the checkout');
    prepack('--clean');
    assert.equal(readFileSync(commitFile(), 'utf8'), 'from-the-image-build\n');
    rmSync(commitFile());
  });

  it('leaves a COMMIT alone when the pack did not write one', () => {
    writeFileSync(commitFile(), 'kept\n');
    prepack('--clean');
    assert.equal(readFileSync(commitFile(), 'utf8'), 'kept\n');
    rmSync(commitFile());
  });

  it('refuses to pack without the built parts, naming the command that makes them', () => {
    rmSync(path.join(root, BUILT[0] as string));
    assert.throws(() => prepack(), /dist\/server\/main\.js missing — run npm run build/);
  });
});
