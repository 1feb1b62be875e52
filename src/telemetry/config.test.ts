import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { telemetrySettings } from './config.js';

describe('OTEL_* variables', () => {
  it('leaves telemetry off without an endpoint, or with the SDK disabled', () => {
    assert.equal(telemetrySettings({}), null);
    assert.equal(telemetrySettings({ OTEL_SERVICE_NAME: 'pdf' }), null);
    assert.equal(
      telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
      null,
    );
  });

  it('derives each signal from the shared endpoint, and lets a signal have its own or none', () => {
    const both = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    assert.equal(both?.traces?.url, 'http://collector:4318/v1/traces');
    assert.equal(both?.metrics?.url, 'http://collector:4318/v1/metrics');
    assert.equal(both?.traces?.protocol, 'http/protobuf');
    assert.equal(both?.serviceName, 'quire');
    const own = telemetrySettings({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    assert.equal(own?.traces?.url, 'https://traces.example/ingest');
    assert.equal(own?.traces?.protocol, 'http/json');
    assert.equal(own?.metrics, null);
    const noMetrics = telemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_METRICS_EXPORTER: 'none',
    });
    assert.equal(noMetrics?.metrics, null);
    assert.ok(noMetrics?.traces);
  });

  it('reads headers, resource attributes and the sampler; warns about what it cannot do', () => {
    const settings = telemetrySettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D,empty',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.namespace=docs',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    assert.deepEqual(settings?.traces?.headers, { 'x-api-key': 'abc=' });
    assert.equal(settings?.traces?.protocol, 'http/protobuf');
    assert.deepEqual(settings?.resourceAttributes, {
      'deployment.environment': 'prod',
      'service.namespace': 'docs',
    });
    assert.deepEqual(settings?.sampler, { kind: 'ratio', ratio: 0.25, parentBased: true });
    assert.equal(settings?.warnings.length, 2, 'grpc, once per signal');
  });
});
