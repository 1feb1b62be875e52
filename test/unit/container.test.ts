import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';

/**
 * Container parity. No container engine runs here, so the Dockerfile is checked as text:
 * the runtime stage's install command is run with `echo` in place of apt-get over the repository's package
 * list, which gives the packages the image installs, and that must be what the bootstrap installs.
 * scripts/verify-image.sh builds the image for real where buildah is available (docs/deployment.md: Container).
 */
const root = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions with their continuation lines joined and comments left out. */
function instructions(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each stage, in order (the first FROM starts the first stage; global ARGs come before). */
function stages(all: Instruction[]): Instruction[][] {
  const result: Instruction[][] = [];
  for (const instruction of all) {
    if (instruction.keyword === 'FROM') result.push([]);
    result.at(-1)?.push(instruction);
  }
  return result;
}

const all = instructions(dockerfile);
const [build, runtime] = stages(all) as [Instruction[], Instruction[]];

function bootstrapPackages(): string[] {
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'scripts/bootstrap.mjs'), '--list-debian-packages'],
    {
      encoding: 'utf8',
    },
  );
  return out.split('\n').filter(Boolean);
}

describe('one Debian package list for development and the image', () => {
  it('the runtime stage installs exactly the bootstrap packages, plus tini and CA certificates', () => {
    const copy = runtime.find((i) => i.keyword === 'COPY' && i.args.includes('deploy/debian-packages.txt'));
    assert.ok(copy, 'the runtime stage copies deploy/debian-packages.txt');
    const target = copy.args.split(/\s+/).at(-1) as string;
    const install = runtime.find((i) => i.keyword === 'RUN' && i.args.includes('apt-get install'));
    assert.ok(install, 'the runtime stage runs apt-get install');
    // The image's own command, with the list at its place in the repository and apt-get install → echo.
    const command = install.args
      .replaceAll(target, path.join(root, 'deploy/debian-packages.txt'))
      .replace(/apt-get update\s*&&/, '')
      .replace(/&&\s*rm -rf .*$/, '')
      .replace(/apt-get install -y --no-install-recommends/, 'echo');
    const installed = execFileSync('sh', ['-c', command], { encoding: 'utf8' }).split(/\s+/).filter(Boolean);
    const wanted = bootstrapPackages();
    assert.ok(
      wanted.includes('fonts-noto-cjk') && wanted.includes('fonts-noto-color-emoji'),
      'CJK and emoji',
    );
    assert.ok(wanted.includes('chromium') && wanted.includes('qpdf'));
    assert.deepEqual([...installed].sort(), [...wanted, 'tini', 'ca-certificates'].sort());
  });

  it('the bootstrap names no package of its own: its list is the file', () => {
    const source = readFileSync(path.join(root, 'scripts/bootstrap.mjs'), 'utf8');
    assert.match(source, /deploy', 'debian-packages\.txt'/);
    for (const name of bootstrapPackages())
      assert.ok(!source.includes(`'${name}'`), `bootstrap hard-codes ${name}`);
  });
});

describe('Dockerfile', () => {
  const nodeImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1] ?? '';

  it('both stages start from one Node LTS image that package.json engines accepts', () => {
    assert.match(
      nodeImage,
      /^node:(\d+)-bookworm-slim$/,
      'the same Debian release as the bootstrap’s machines',
    );
    const major = Number(/^node:(\d+)/.exec(nodeImage)?.[1]);
    assert.equal(major % 2, 0, 'even Node majors become LTS; odd ones never do');
    assert.ok(major >= 22, 'Node 20 is past its end of life (April 2026)');
    const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node as string;
    // The tag follows the line's newest release, so some release of the line must be accepted.
    assert.ok(semver.intersects(`^${major}.0.0`, engines), `engines ${engines} accepts Node ${major}.x`);
    // Dockerfile's own variable syntax, not a JavaScript template.
    const fromNodeImage = ['$', '{NODE_IMAGE}'].join('');
    assert.deepEqual(
      [build, runtime].map((stage) => stage[0]?.args.split(/\s+/)[0]),
      [fromNodeImage, fromNodeImage],
    );
  });

  it('every file the build copies from the context exists and is not excluded by .dockerignore', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    const sources = all
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    assert.ok(sources.length > 5);
    for (const source of sources) {
      assert.ok(existsSync(path.join(root, source)), `COPY ${source}: no such file`);
      const top = source.split('/')[0];
      assert.ok(!ignored.includes(top ?? ''), `COPY ${source}, but .dockerignore leaves out ${top}`);
    }
  });

  it('runs as a non-root user under tini, with a /readyz health check', () => {
    const last = (keyword: string) => runtime.filter((i) => i.keyword === keyword).at(-1)?.args ?? '';
    assert.equal(last('USER'), 'quire');
    assert.match(last('ENTRYPOINT'), /^\["tini", "--", "node", "\/app\/bin\/quire\.mjs"\]$/);
    assert.match(last('HEALTHCHECK'), /\/readyz/);
  });
});
