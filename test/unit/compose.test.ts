import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config.js';

/**
 * The compose files cannot be run here (no container registry): this parses them as YAML (merge keys
 * resolved, as Compose does) and checks that what they wire together exists. `docker compose config`
 * remains the real check before a release.
 */
const root = path.resolve(import.meta.dirname, '../..');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, { condition: string }>;
  volumes?: string[];
  configs?: { source: string }[];
  deploy?: { replicas?: number };
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  configs?: Record<string, { content?: string }>;
}

function load(name: string): ComposeFile {
  return parse(readFileSync(path.join(root, name), 'utf8'), { merge: true }) as ComposeFile;
}

function dependencies(service: Service): string[] {
  const d = service.depends_on;
  return Array.isArray(d) ? d : Object.keys(d ?? {});
}

function assertWired(file: ComposeFile): void {
  for (const [name, service] of Object.entries(file.services)) {
    assert.ok(service.image || service.build, `${name} has an image or a build`);
    for (const dep of dependencies(service))
      assert.ok(file.services[dep], `${name} depends on unknown ${dep}`);
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0] as string;
      if (!source.startsWith('.') && !source.startsWith('/'))
        assert.ok(file.volumes && source in file.volumes, `${name} mounts undeclared volume ${source}`);
    }
    for (const config of service.configs ?? [])
      assert.ok(file.configs?.[config.source], `${name} uses undeclared config ${config.source}`);
  }
}

describe('compose files', () => {
  it('compose.yaml parses and its services are wired to what exists', () => {
    const file = load('compose.yaml');
    assertWired(file);
    assert.deepEqual(Object.keys(file.services).sort(), ['api', 'worker']);
  });

  it('compose.scale.yaml: Caddy in front of two APIs, two workers, PostgreSQL and SeaweedFS (S3)', () => {
    const file = load('compose.scale.yaml');
    assertWired(file);
    const { services } = file;
    assert.deepEqual(Object.keys(services).sort(), [
      'api-1',
      'api-2',
      'caddy',
      'postgres',
      's3',
      's3-bucket',
      'worker',
    ]);
    const quire = ['api-1', 'api-2', 'worker'].map((n) => services[n] as Service);
    for (const service of quire) {
      const env = service.environment ?? {};
      assert.match(env.QUIRE_DATABASE_URL ?? '', /^postgres:\/\/quire:.*@postgres:5432\/quire$/);
      assert.match(env.QUIRE_STORAGE_URL ?? '', /^s3:\/\/quire\/.*endpoint=http:\/\/s3:8333/);
      assert.ok(service.volumes?.includes('quire-data:/data'), 'one shared server secret');
    }
    assert.deepEqual(services['api-1']?.command, ['serve']);
    assert.equal(services['api-1']?.environment?.QUIRE_WORKERS, '0');
    assert.deepEqual(services.worker?.command, ['worker']);
    assert.equal(services.worker?.deploy?.replicas, 2);
    const caddyfile = file.configs?.caddyfile?.content ?? '';
    assert.match(caddyfile, /reverse_proxy api-1:3000 api-2:3000/);
    assert.match(caddyfile, /health_uri \/readyz/);
    // The bucket the store URL names is the one s3-bucket creates; the key Quire signs with is the store's.
    assert.match(JSON.stringify(services['s3-bucket']?.command), /s3\.bucket\.create -name quire/);
    const identities = file.configs?.['s3-identities']?.content ?? '';
    assert.ok(identities.includes(services['api-1']?.environment?.AWS_ACCESS_KEY_ID ?? 'missing'));
    assert.ok(identities.includes(services['api-1']?.environment?.AWS_SECRET_ACCESS_KEY ?? 'missing'));
  });

  it('every image not built from this repository is pinned to a version', () => {
    for (const name of ['compose.yaml', 'compose.scale.yaml']) {
      for (const [service, { image, build }] of Object.entries(load(name).services)) {
        if (build || image?.startsWith('quire:')) continue;
        assert.match(image ?? '', /^[\w./-]+:\d+(\.\d+)+$/, `${name}: ${service} pins its image (${image})`);
      }
    }
  });

  it('.env.example names every variable the compose files read', () => {
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    const defined = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    for (const name of ['compose.yaml', 'compose.scale.yaml']) {
      const text = readFileSync(path.join(root, name), 'utf8');
      // `$$VAR` is a shell variable inside a container, not Compose's.
      const read = [...text.matchAll(/(?<!\$)\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] as string);
      assert.ok(read.length > 0);
      for (const variable of read)
        assert.ok(defined.has(variable), `${name} reads ${variable}: add it to .env.example`);
    }
  });

  it('Docker waits longer than Quire drains before it kills an API or a worker', () => {
    for (const name of ['compose.yaml', 'compose.scale.yaml']) {
      for (const [service, spec] of Object.entries(load(name).services)) {
        if (!spec.image?.startsWith('quire:')) continue;
        const grace = spec.environment?.QUIRE_SHUTDOWN_GRACE_MS;
        const drainMs = loadConfig(grace ? { QUIRE_SHUTDOWN_GRACE_MS: grace } : {}).shutdownGraceMs;
        const stopSeconds = Number(/^(\d+)s$/.exec(spec.stop_grace_period ?? '')?.[1] ?? 10);
        assert.ok(
          stopSeconds * 1000 >= drainMs + 5000,
          `${name}: ${service} stop_grace_period ${stopSeconds}s`,
        );
      }
    }
  });
});
