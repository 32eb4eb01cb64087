import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactedUrl } from '../../src/telemetry/client-spans.ts';
import { telemetryPlan } from '../../src/telemetry/telemetry.ts';

// When telemetry is on, as the standard OTEL_* variables say: nothing is exported unless they ask for it.

const ENDPOINT = 'http://127.0.0.1:4318';

const signals = (env: NodeJS.ProcessEnv) => {
  const plan = telemetryPlan(env);
  return { traces: plan.traces, metrics: plan.metrics };
};

describe('telemetryPlan', () => {
  test('telemetry is off when no variable asks for it', () => {
    assert.deepEqual(signals({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), {
      traces: undefined,
      metrics: undefined,
    });
  });

  test('an OTLP endpoint turns both signals on, over http/protobuf by default', () => {
    assert.deepEqual(signals({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }), {
      traces: 'http/protobuf',
      metrics: 'http/protobuf',
    });
  });

  test("a signal's own endpoint turns that signal on only", () => {
    assert.deepEqual(signals({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces` }), {
      traces: 'http/protobuf',
      metrics: undefined,
    });
  });

  test("the exporter variable otlp turns a signal on, to the SDK's default endpoint", () => {
    assert.deepEqual(signals({ OTEL_METRICS_EXPORTER: 'otlp' }), {
      traces: undefined,
      metrics: 'http/protobuf',
    });
  });

  test('the exporter variable none turns a signal off whatever the endpoint', () => {
    assert.deepEqual(signals({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }), {
      traces: undefined,
      metrics: 'http/protobuf',
    });
  });

  test('OTEL_SDK_DISABLED=true turns everything off', () => {
    assert.deepEqual(
      signals({
        OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_SDK_DISABLED: 'TRUE',
      }),
      { traces: undefined, metrics: undefined },
    );
  });

  test('OTEL_SDK_DISABLED other than true or false leaves telemetry on, with a warning naming the value that does', () => {
    for (const value of ['1', 'yes', 'TRUE ']) {
      const plan = telemetryPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: value });
      if (value.trim().toLowerCase() === 'true') {
        assert.equal(plan.traces, undefined);
        continue;
      }
      assert.equal(plan.traces, 'http/protobuf', `OTEL_SDK_DISABLED=${value}`);
      assert.equal(plan.warnings.length, 1);
      assert.match(plan.warnings[0]!, /OTEL_SDK_DISABLED=\S+ does not turn telemetry off: only "true" does/);
    }
    assert.deepEqual(
      telemetryPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' }).warnings,
      [],
    );
  });

  test('an endpoint that is not an http(s) URL turns its signal off with a warning naming the variable, not its value', () => {
    const plan = telemetryPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318?token=s3cret-value' });
    assert.deepEqual([plan.traces, plan.metrics], [undefined, undefined]);
    assert.equal(plan.warnings.length, 2);
    assert.match(
      plan.warnings[0]!,
      /^telemetry: OTEL_EXPORTER_OTLP_ENDPOINT is not an http\(s\) URL .* so traces are not exported$/,
    );
    assert.ok(plan.warnings.every((warning) => !warning.includes('s3cret')));
    const own = telemetryPlan({
      OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'not a url',
    });
    assert.deepEqual([own.traces, own.metrics], ['http/protobuf', undefined]);
    assert.match(own.warnings[0]!, /OTEL_EXPORTER_OTLP_METRICS_ENDPOINT is not an http\(s\) URL/);
  });

  test('an empty variable counts as unset', () => {
    assert.deepEqual(signals({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ', OTEL_TRACES_EXPORTER: '' }), {
      traces: undefined,
      metrics: undefined,
    });
  });

  test("a signal's own protocol wins over the general one", () => {
    assert.deepEqual(
      signals({
        OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf',
      }),
      { traces: 'http/json', metrics: 'http/protobuf' },
    );
  });

  test('grpc turns its signal off with a warning naming the variable and what to use', () => {
    const plan = telemetryPlan({
      OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
    });
    assert.equal(plan.traces, undefined);
    assert.equal(plan.metrics, 'http/protobuf');
    assert.deepEqual(plan.warnings, [
      'telemetry: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not supported, so traces are not exported; use ' +
        "http/protobuf (the collector's OTLP/HTTP port, 4318) or http/json",
    ]);
  });

  test('an exporter other than otlp is refused with a warning: console would write to stdout', () => {
    const plan = telemetryPlan({ OTEL_TRACES_EXPORTER: 'console,otlp' });
    assert.equal(plan.traces, 'http/protobuf');
    assert.match(plan.warnings.join('\n'), /OTEL_TRACES_EXPORTER=console is not supported.*stdout/);
  });

  test('propagation is W3C trace context alone unless OTEL_PROPAGATORS adds baggage', () => {
    assert.deepEqual(telemetryPlan({}).propagators, ['tracecontext']);
    assert.deepEqual(telemetryPlan({ OTEL_PROPAGATORS: 'tracecontext,baggage' }).propagators, [
      'tracecontext',
      'baggage',
    ]);
    assert.deepEqual(telemetryPlan({ OTEL_PROPAGATORS: 'none' }).propagators, []);
  });

  test('resource detectors are not taken from OTEL_NODE_RESOURCE_DETECTORS, and the plan says so', () => {
    const plan = telemetryPlan({
      OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
      OTEL_NODE_RESOURCE_DETECTORS: 'all',
    });
    assert.match(plan.warnings.join('\n'), /OTEL_NODE_RESOURCE_DETECTORS is ignored.*command line/);
  });
});

describe('redactedUrl', () => {
  test('every query value is replaced by REDACTED, the names kept', () => {
    assert.equal(
      redactedUrl(new URL('https://api.example.com/graphql?query=%7B+a+%7D&variables=%7B%7D&key=s3cr3t')),
      'https://api.example.com/graphql?query=REDACTED&variables=REDACTED&key=REDACTED',
    );
  });

  test('a query parameter without a value is redacted whole', () => {
    assert.equal(redactedUrl(new URL('http://127.0.0.1:8080/g?s3cr3t')), 'http://127.0.0.1:8080/g?REDACTED');
  });

  test('user-info and the fragment are left out', () => {
    assert.equal(redactedUrl(new URL('https://user:pass@api.example.com/g#x')), 'https://api.example.com/g');
  });
});
