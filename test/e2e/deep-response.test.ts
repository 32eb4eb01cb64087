// Responses nested deeper than the server reads: a GraphQL response thousands of
// levels deep MUST end in INVALID_RESPONSE stating the limit, for both tools, never in an uncoded stack
// overflow; one nested exactly to the limit is still an answer; and the server keeps serving afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { MAX_RESPONSE_DEPTH } from '../../src/http/classify-response.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';

let fault: FaultServer;
let main: McpSession;

before(async () => {
  fault = await startFaultServer();
  fault.route('/ok', respond.json({ data: { ok: true } }));
  // No schema cache: each introspection below reaches the endpoint.
  main = await startMcp([`--endpoint=${fault.origin}/ok`, '--schemaTtl=0']);
});

after(async () => {
  await main?.close();
  await fault?.close();
});

/**
 * JSON text of a value nested `levels` deep, objects and arrays in turn, its innermost value a string that
 * holds brackets and escaped quotes (data, not nesting): 1 is `{"a":"…"}`.
 */
function nested(levels: number): string {
  const leaf = JSON.stringify('[{"\\[{ not nesting');
  let open = '';
  let close = '';
  for (let level = 0; level < levels; level++) {
    const object = level % 2 === 0;
    open += object ? '{"a":' : '[';
    close = (object ? '}' : ']') + close;
  }
  return open + leaf + close;
}

/** A response whose `data` makes it `levels` deep in all (the response object is one of them). */
function deepData(levels: number): string {
  return `{"data":${nested(levels - 1)}}`;
}

/** A valid introspection of a small schema, with `extensions` that make the response `levels` deep. */
function introspectionWithDeepExtensions(levels: number): string {
  const schema = introspectionFromSchema(buildSchema('type Query { ok: Boolean }'));
  return `{"data":${JSON.stringify(schema)},"extensions":${nested(levels - 1)}}`;
}

let routes = 0;
function endpointAnswering(body: string): string {
  return fault.route(`/deep-${++routes}`, respond.text(200, 'application/json', body));
}

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

function assertTooDeep(result: CallToolResult): void {
  const text = firstText(result);
  assert.equal(result.isError, true, text.slice(0, 300));
  assert.ok(text.startsWith('INVALID_RESPONSE: '), text.slice(0, 300));
  assert.match(text, new RegExp(`more than ${MAX_RESPONSE_DEPTH.toLocaleString('en-US')} levels`));
  assert.doesNotMatch(text, /call stack/i);
}

async function assertStillServing(): Promise<void> {
  const result = await main.call('graphql_query', { query: '{ ok }' });
  assert.notEqual(result.isError, true, firstText(result));
  assert.deepEqual(result.structuredContent, { data: { ok: true } });
}

describe('graphql_query', () => {
  test('MUST end a response nested 5,000 levels deep with INVALID_RESPONSE stating the limit, and keep serving', async () => {
    const endpoint = endpointAnswering(deepData(5_000));
    assertTooDeep(await main.call('graphql_query', { query: '{ a }', endpoint }));
    assert.equal(fault.requestsTo(new URL(endpoint).pathname).length, 1);
    await assertStillServing();
  });

  test('MUST end a response one level past the limit with INVALID_RESPONSE', async () => {
    const endpoint = endpointAnswering(deepData(MAX_RESPONSE_DEPTH + 1));
    assertTooDeep(await main.call('graphql_query', { query: '{ a }', endpoint }));
  });

  test(`a response nested exactly ${MAX_RESPONSE_DEPTH} levels deep is returned whole`, async () => {
    const body = deepData(MAX_RESPONSE_DEPTH);
    const endpoint = endpointAnswering(body);
    const result = await main.call('graphql_query', { query: '{ a }', endpoint });
    assert.notEqual(result.isError, true, firstText(result).slice(0, 300));
    assert.deepEqual(result.structuredContent, JSON.parse(body));
    await assertStillServing();
  });

  test('MUST end a response nested 100,000 levels deep with INVALID_RESPONSE', async () => {
    const endpoint = endpointAnswering(deepData(100_000));
    assertTooDeep(await main.call('graphql_query', { query: '{ a }', endpoint }));
    await assertStillServing();
  });
});

describe('graphql_introspect', () => {
  test('MUST end an introspection response nested 5,000 levels deep with INVALID_RESPONSE stating the limit, and keep serving', async () => {
    const endpoint = endpointAnswering(deepData(5_000));
    assertTooDeep(await main.call('graphql_introspect', { endpoint }));
    await assertStillServing();
  });

  test('MUST end a valid introspection whose extensions are nested 5,000 levels deep with INVALID_RESPONSE', async () => {
    const endpoint = endpointAnswering(introspectionWithDeepExtensions(5_000));
    assertTooDeep(await main.call('graphql_introspect', { endpoint }));
    await assertStillServing();
  });

  test(`a valid introspection whose extensions make it exactly ${MAX_RESPONSE_DEPTH} levels deep is read`, async () => {
    const endpoint = endpointAnswering(introspectionWithDeepExtensions(MAX_RESPONSE_DEPTH));
    const result = await main.call('graphql_introspect', { endpoint });
    assert.notEqual(result.isError, true, firstText(result).slice(0, 300));
    assert.match(firstText(result), /\bQuery\b/);
    await assertStillServing();
  });
});
