// Remote mode's bounds: one HTTP client must not be able to fill the server's
// memory or slip calls past the request log. Requests in flight and request bodies are bounded, beyond which
// the server answers 413 or 503 with Retry-After; JSON-RPC batches are refused whole.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  MCP_POST_HEADERS,
  rawRequest,
  startHttpMcp,
  toolCallBody,
  type HttpMcpProcess,
} from '../fixtures/http-mcp.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';

const BODY_LIMIT = 4 * 1024 * 1024;

let api: FaultServer;
/** Releases the requests held on /slow. */
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

before(async () => {
  api = await startFaultServer();
  api.route('/graphql', respond.json({ data: { ok: true } }));
  api.route('/slow', async (exchange) => {
    await held;
    await respond.json({ data: { ok: true } })(exchange);
  });
  api.route('/mutate', respond.json({ data: { deleteAll: true } }));
});
after(() => api.close());

const post = (server: HttpMcpProcess, body: string) =>
  rawRequest(server.url, { method: 'POST', headers: MCP_POST_HEADERS, body, timeoutMs: 20_000 });

describe('remote mode bounds', () => {
  let server: HttpMcpProcess;
  before(async () => (server = await startHttpMcp([`--endpoint=${api.origin}/graphql`, '--maxInFlight=2'])));
  after(() => server.stop());

  test('MUST refuse a JSON-RPC batch with Invalid Request, running none of its calls', async () => {
    const mutation = JSON.parse(
      toolCallBody('graphql_query', {
        query: 'mutation { deleteAll }',
        allowMutations: true,
        endpoint: `${api.origin}/mutate`,
      }),
    ) as unknown;
    const response = await post(server, JSON.stringify([mutation, { ...(mutation as object), id: 2 }]));
    assert.equal(response.status, 400, response.body);
    const answer = JSON.parse(response.body) as { error?: { code?: number; message?: string } };
    assert.equal(answer.error?.code, -32600);
    assert.match(answer.error?.message ?? '', /batch/i);
    assert.equal(api.requestsTo('/mutate').length, 0, 'a call of the batch reached the endpoint');
    // The request log names it (written when the response closes).
    const deadline = Date.now() + 2_000;
    while (!server.requestLog().some((line) => line.rpc === 'batch') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(server.requestLog().some((line) => line.rpc === 'batch' && line.status === 400));
  });

  test(`answers a body over ${BODY_LIMIT} bytes with 413, and goes on serving`, async () => {
    const big = toolCallBody('graphql_query', { query: '{ ok }', variables: { x: 'x'.repeat(BODY_LIMIT) } });
    const response = await post(server, big);
    assert.equal(response.status, 413);
    const next = await post(server, toolCallBody('graphql_query', { query: '{ ok }' }));
    assert.equal(next.status, 200, next.body);
  });

  test('answers 503 with Retry-After beyond --maxInFlight requests, and serves again once they end', async () => {
    held = new Promise((resolve) => (release = resolve));
    const before = api.requestsTo('/slow').length;
    const slow = [1, 2].map((id) =>
      post(server, toolCallBody('graphql_query', { query: '{ ok }', endpoint: `${api.origin}/slow` }, id)),
    );
    // Both held requests have reached the endpoint: the server holds two in flight.
    while (api.requestsTo('/slow').length < before + 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const third = await post(server, toolCallBody('graphql_query', { query: '{ ok }' }, 3));
    assert.equal(third.status, 503, third.body);
    assert.equal(third.headers['retry-after'], '1');
    release();
    for (const response of await Promise.all(slow)) assert.equal(response.status, 200, response.body);
    const fourth = await post(server, toolCallBody('graphql_query', { query: '{ ok }' }, 4));
    assert.equal(fourth.status, 200, fourth.body);
  });
});

describe('remote mode memory under large bodies to a slow endpoint', () => {
  let server: HttpMcpProcess;
  before(async () => (server = await startHttpMcp([`--endpoint=${api.origin}/graphql`])));
  after(() => server.stop());

  /** VmRSS of the server process, in MB. */
  const rssMb = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

  test('MUST hold at most 16 MiB of request bodies: 40 calls of 3.5 MB each, beyond it 503, memory bounded', async () => {
    held = new Promise((resolve) => (release = resolve));
    const body = (id: number) =>
      toolCallBody(
        'graphql_query',
        { query: '{ ok }', endpoint: `${api.origin}/slow`, variables: { x: 'x'.repeat(3_500_000) } },
        id,
      );
    const calls = Array.from({ length: 40 }, (_, i) => post(server, body(i + 1)));
    // Let every body arrive (or be refused) while the endpoint holds the answers.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const peak = rssMb();
    release();
    const statuses = (await Promise.all(calls)).map((response) => response.status);
    const refused = statuses.filter((status) => status === 503).length;
    const served = statuses.filter((status) => status === 200).length;
    assert.equal(refused + served, 40, `unexpected statuses: ${statuses.join(' ')}`);
    assert.ok(refused >= 30, `only ${refused} of 40 were refused: ${statuses.join(' ')}`);
    assert.ok(served >= 3, `only ${served} of 40 were served`);
    assert.ok(peak < 300, `the server held ${Math.round(peak)} MB`);
  });
});
