import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { CONFIG_KEYS, loadConfig } from '../../src/config/config.js';

/**
 * Deploy/kubernetes/ cannot be applied here (no cluster). Every object is validated against
 * the Kubernetes API's OpenAPI schemas as shipped by kubernetes-models (the JSON schemas of each kind, checked
 * with ajv), then the wiring a schema cannot see is checked: selectors, probes, references, settings, and the
 * shutdown timing against Quire's drain.
 */
const dir = path.resolve(import.meta.dirname, '../../deploy/kubernetes');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

const kustomization = parseAllDocuments(
  readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'),
)[0]?.toJS() as {
  resources: string[];
  namespace: string;
  images: { name: string }[];
};
const objects: K8sObject[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => {
    assert.deepEqual(doc.errors, [], file);
    return doc.toJS({ maxAliasCount: 100 }) as K8sObject;
  }),
);

function find(kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  assert.ok(found, `${kind} ${name} is in the manifests`);
  return found;
}

/** The container's environment as Kubernetes assembles it: envFrom (ConfigMap, Secret), then env. */
function environment(deployment: K8sObject): Record<string, string> {
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, find('ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) Object.assign(env, find('Secret', from.secretRef.name).stringData);
  }
  for (const { name, value } of container.env ?? []) env[name] = value;
  return env;
}

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('deploy/kubernetes manifests', () => {
  it('kustomization.yaml lists every manifest in the folder', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    assert.deepEqual([...kustomization.resources].sort(), files.sort());
    assert.equal(kustomization.namespace, 'quire');
  });

  it('every object is valid against its Kubernetes API schema', () => {
    assert.ok(objects.length >= 10);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      assert.ok(Model, `no schema for ${object.apiVersion} ${object.kind}`);
      assert.doesNotThrow(
        () => new Model(object as never).validate(),
        `${object.kind} ${object.metadata.name}`,
      );
    }
  });

  it('the validation catches a mistake (a probe port that is not a port)', () => {
    const api = structuredClone(find('Deployment', 'quire-api'));
    api.spec.template.spec.containers[0].readinessProbe.httpGet.port = { name: 'http' };
    assert.throws(() => new Deployment(api as never).validate());
  });

  it('the API: readiness on /readyz, liveness on /healthz, on the container port the Service targets', () => {
    const api = find('Deployment', 'quire-api');
    const container = api.spec.template.spec.containers[0];
    assert.deepEqual(container.args, ['serve']);
    assert.equal(container.readinessProbe.httpGet.path, '/readyz');
    assert.equal(container.livenessProbe.httpGet.path, '/healthz');
    const port = container.ports.find(
      (p: { name: string }) => p.name === container.readinessProbe.httpGet.port,
    );
    assert.equal(String(port?.containerPort), environment(api).QUIRE_PORT);
    const service = find('Service', 'quire-api');
    assert.ok(matches(service.spec.selector, api.spec.template.metadata.labels));
    assert.equal(service.spec.ports[0].targetPort, port?.name);
    assert.equal(environment(api).QUIRE_WORKERS, '0', 'renders run in the workers');
  });

  it('the workers run `quire worker`, and every pod shares one server secret', () => {
    const worker = find('Deployment', 'quire-worker');
    assert.deepEqual(worker.spec.template.spec.containers[0].args, ['worker']);
    assert.ok(Number(environment(worker).QUIRE_WORKERS) >= 1);
    for (const deployment of [find('Deployment', 'quire-api'), worker]) {
      const pod = deployment.spec.template.spec;
      const mount = pod.containers[0].volumeMounts.find(
        (m: { mountPath: string }) =>
          m.mountPath === `${environment(deployment).QUIRE_DATA_DIR}/server-secret`,
      );
      assert.ok(mount, `${deployment.metadata.name} mounts DATA_DIR/server-secret`);
      const volume = pod.volumes.find((v: { name: string }) => v.name === mount.name);
      const secret = find('Secret', volume.secret.secretName);
      assert.ok(secret.stringData?.[mount.subPath] !== undefined);
      assert.equal(pod.securityContext.runAsUser, 10001, 'the image’s non-root user');
      assert.equal(pod.containers[0].image, kustomization.images[0]?.name);
    }
  });

  it('the ConfigMap and Secret hold settings Quire accepts', () => {
    for (const deployment of [find('Deployment', 'quire-api'), find('Deployment', 'quire-worker')]) {
      const env = environment(deployment);
      const quireKeys = Object.keys(env).filter((k) => k.startsWith('QUIRE_'));
      assert.ok(quireKeys.length >= 8);
      // loadConfig names a bad value in a ConfigError; a misspelt key would go unread, so known keys only.
      const known = new Set(CONFIG_KEYS.map((k) => k.env));
      assert.deepEqual(
        quireKeys.filter((k) => !known.has(k)),
        [],
        'settings Quire does not have',
      );
      const config = loadConfig(env);
      assert.equal(config.databaseUrl?.startsWith('postgres://'), true);
      assert.ok(config.storage, 'QUIRE_STORAGE_URL: S3, shared by every pod');
    }
  });

  it('a HorizontalPodAutoscaler on CPU and a PodDisruptionBudget for each Deployment', () => {
    for (const name of ['quire-api', 'quire-worker']) {
      const deployment = find('Deployment', name);
      const hpa = objects.find(
        (o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === name,
      );
      assert.ok(hpa, `an HPA scales ${name}`);
      assert.equal(hpa.spec.scaleTargetRef.kind, 'Deployment');
      assert.equal(hpa.spec.metrics[0].resource.name, 'cpu');
      assert.ok(
        deployment.spec.template.spec.containers[0].resources.requests.cpu,
        'CPU utilisation needs a request',
      );
      const pdb = objects.find(
        (o) =>
          o.kind === 'PodDisruptionBudget' &&
          matches(o.spec.selector.matchLabels, deployment.spec.template.metadata.labels),
      );
      assert.ok(pdb, `a PodDisruptionBudget covers ${name}`);
      assert.ok(hpa.spec.minReplicas > (pdb.spec.minAvailable ?? 0), 'a drain can always evict one pod');
    }
  });

  it('Kubernetes waits longer than the preStop pause plus Quire’s drain before it kills a pod', () => {
    for (const name of ['quire-api', 'quire-worker']) {
      const deployment = find('Deployment', name);
      const pod = deployment.spec.template.spec;
      const drainSeconds = loadConfig(environment(deployment)).shutdownGraceMs / 1000;
      const preStop = pod.containers[0].lifecycle?.preStop?.exec?.command as string[] | undefined;
      const pauseSeconds = preStop ? Number(preStop[1]) : 0;
      // Chromium, the job pools and the database close after the drain: a few seconds, 5 at least.
      assert.ok(
        pod.terminationGracePeriodSeconds >= pauseSeconds + drainSeconds + 5,
        `${name}: terminationGracePeriodSeconds ${pod.terminationGracePeriodSeconds} < ${pauseSeconds} + ${drainSeconds} + 5`,
      );
    }
    const api = find('Deployment', 'quire-api').spec.template.spec.containers[0];
    assert.deepEqual(
      api.lifecycle.preStop.exec.command,
      ['sleep', '10'],
      'endpoints drop the pod before SIGTERM',
    );
  });
});
