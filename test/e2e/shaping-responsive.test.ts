// Shortening a hostile answer MUST NOT stall the server: a GraphQL API on 127.0.0.1 answers with
// about 1 MiB of lists nested 990 deep with hundreds of siblings at each level, which the old shaping took tens
// of seconds to shorten, on the event loop. While the server shapes it, pings (stdio) and GET /health (remote
// mode) are answered without waiting for it, and the result is within --maxResultChars and says what was cut.
// A probe's wait counts only while the server's main thread ran (its CPU time meanwhile), so that a busy machine
// does not count; the probes' wall-clock figures are bench/responsiveness.ts's.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { rawRequest, startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { hostileResponse } from '../fixtures/hostile-responses.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';
import { mainThreadCpuMs } from '../stress/harness.ts';

/**
 * The longest a probe may wait on the server's event loop: the slowest took 30-64 ms here (the 1 MiB answer's
 * parse and serialisation hold the loop that long); one queued behind the old shaping waited seconds.
 */
const PROMPT_MS = 1_000;
const MAX_RESULT_CHARS = 40_000;
/** Just under the default --maxResponseBytes (1 MiB). */
const BODY_CHARS = 1_040_000;

let api: FaultServer;
let hostile: string;
let body: string;

before(async () => {
  api = await startFaultServer();
  body = JSON.stringify(hostileResponse('nested lists', BODY_CHARS, { depth: 990, nestedFirst: true }));
  hostile = api.route('/nested', respond.text(200, 'application/json', body));
  api.route('/ok', respond.json({ data: { ok: true } }));
});

after(async () => {
  await api?.close();
});

/**
 * Sends `probe` again and again, 5 ms apart, from when the endpoint has the request until `call` settles
 * (once at least): while the server (process `pid`) reads, parses and shapes the answer. Returns the call's
 * result and the longest a probe waited on the server: its round trip, but no more than the CPU time the
 * server's main thread (where its event loop runs) used meanwhile.
 */
async function probeDuring(
  pid: number,
  call: () => Promise<CallToolResult>,
  probe: () => Promise<unknown>,
): Promise<{ result: CallToolResult; slowest: number }> {
  const requested = api.waitForRequest('/nested', 10_000);
  let settled = false;
  const pending = call().finally(() => (settled = true));
  await requested;
  let slowest = 0;
  do {
    const cpu = mainThreadCpuMs(pid);
    const started = performance.now();
    await probe();
    const waited = Math.min(performance.now() - started, mainThreadCpuMs(pid) - cpu);
    slowest = Math.max(slowest, waited);
    await sleep(5);
  } while (!settled);
  return { result: await pending, slowest };
}

function assertShortened(result: CallToolResult): void {
  const [text, note] = texts(result);
  assert.notEqual(result.isError, true, text?.slice(0, 300));
  assert.ok(text!.length <= MAX_RESULT_CHARS, `${text!.length} characters`);
  assert.deepEqual(JSON.parse(text!), result.structuredContent);
  assert.match(note!, /^The response was shortened to fit [\d,]+ characters/);
  assert.match(note!, /data\.x kept 1 of [\d,]+ items/);
}

describe('over stdio', () => {
  let session: McpSession;
  before(async () => {
    session = await startMcp([`--endpoint=${api.origin}/ok`, `--maxResultChars=${MAX_RESULT_CHARS}`]);
    await session.call('graphql_query', { query: '{ ok }' }); // the pipeline loaded
  });
  after(async () => {
    await session?.close();
  });

  test('MUST answer pings promptly while it shortens a 1 MiB answer nested 990 deep', async (t) => {
    const { result, slowest } = await probeDuring(
      session.pid!,
      () => session.call('graphql_query', { query: '{ x }', endpoint: hostile }),
      () => session.client.ping(),
    );
    t.diagnostic(`slowest ping: ${slowest.toFixed(1)} ms`);
    assert.ok(slowest < PROMPT_MS, `a ping waited ${Math.round(slowest)} ms`);
    assertShortened(result);
  });
});

describe('in remote mode', () => {
  let server: HttpMcpProcess;
  before(async () => {
    server = await startHttpMcp([`--endpoint=${api.origin}/ok`, `--maxResultChars=${MAX_RESULT_CHARS}`]);
  });
  after(async () => {
    await server?.stop();
  });

  test('MUST answer GET /health promptly while it shortens a 1 MiB answer nested 990 deep', async (t) => {
    const client = await server.connect();
    try {
      await client.call('graphql_query', { query: '{ ok }' });
      const { result, slowest } = await probeDuring(
        server.pid,
        () => client.call('graphql_query', { query: '{ x }', endpoint: hostile }),
        async () => assert.equal((await rawRequest(`${server.origin}/health`)).status, 200),
      );
      t.diagnostic(`slowest GET /health: ${slowest.toFixed(1)} ms`);
      assert.ok(slowest < PROMPT_MS, `GET /health waited ${Math.round(slowest)} ms`);
      assertShortened(result);
    } finally {
      await client.close();
    }
  });
});
