import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

/**
 * `npm ci` on a supported Node prints no EBADENGINE warning. Every package the lock installs must
 * accept the oldest release of each Node line Quire supports (package.json `engines`); a dependency whose new major wants a newer
 * Node is pinned or overridden (package.json `overrides`) to a release that does not.
 */
describe('the lock installs only packages that run on every supported Node', () => {
  const supported: string = json('package.json').engines.node;
  // The oldest release of each line package.json accepts (`^20.19.0 || >=22.13.0`: 20.19.0 and 22.13.0).
  const oldest = supported.split('||').map((range) => semver.minVersion(range.trim())?.version ?? range);
  const locked = Object.entries(json('package-lock.json').packages as Record<string, { engines?: unknown }>);

  for (const version of oldest) {
    it(`every locked package accepts Node ${version}`, () => {
      assert.ok(semver.valid(version), `package.json engines.node: ${supported}`);
      const refusing = locked
        .map(([name, entry]) => ({ name, range: (entry.engines as { node?: string } | undefined)?.node }))
        .filter(({ range }) => typeof range === 'string' && !semver.satisfies(version, range))
        .map(({ name, range }) => `${name} wants node ${range}`);
      assert.deepEqual(refusing, [], `Node ${version} would get EBADENGINE for these`);
    });
  }
});
