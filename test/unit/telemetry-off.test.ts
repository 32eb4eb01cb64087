import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';

// Off means off: a process whose environment does not ask for telemetry loads no OpenTelemetry module and
// exports nothing. Each case runs in a child process of its own, which starts telemetry as the server does, publishes
// a GraphQL operation as the domain does, stops, and reports which modules it loaded; the receiver's count is read once
// the child has exited.

const run = promisify(execFile);

const CHILD = `
import { createRequire } from 'node:module';
import { startTelemetry } from ${JSON.stringify(new URL('../../src/telemetry/telemetry.ts', import.meta.url).pathname)};
import { graphqlOperation } from ${JSON.stringify(new URL('../../src/common/diagnostics.ts', import.meta.url).pathname)};
const { telemetry } = await startTelemetry(process.env, { version: '1.0.0', log: () => undefined });
await graphqlOperation.tracePromise(async () => undefined, { type: 'query', name: 'Probe' });
await telemetry?.shutdown(5000);
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('@opentelemetry'));
process.stdout.write(JSON.stringify({ on: telemetry !== undefined, loaded: loaded.length }));
`;

/** Runs the child with exactly this environment (and PATH); what it reported. */
async function child(env: Record<string, string>): Promise<{ on: boolean; loaded: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { on: boolean; loaded: number };
}

describe('telemetry off', () => {
  let receiver: OtlpReceiver;
  before(async () => {
    receiver = await startOtlpReceiver();
  });
  after(() => receiver.close());

  test('without the variables that ask for it, no OpenTelemetry module is loaded and nothing is exported', async () => {
    const report = await child({
      OTEL_SERVICE_NAME: 'graphql-mcp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    assert.deepEqual(report, { on: false, loaded: 0 });
  });

  test('OTEL_SDK_DISABLED=true loads nothing and sends nothing to the endpoint given', async () => {
    receiver.clear();
    const report = await child({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SDK_DISABLED: 'true' });
    assert.deepEqual(report, { on: false, loaded: 0 });
    assert.equal(receiver.exports.length, 0);
  });

  test('the same child with the endpoint given loads the SDK and exports (the check above can fail)', async () => {
    receiver.clear();
    const report = await child({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    assert.equal(report.on, true);
    assert.ok(report.loaded > 0);
    assert.ok(receiver.spans.some((span) => span.attributes['graphql.operation.name'] === 'Probe'));
  });
});
