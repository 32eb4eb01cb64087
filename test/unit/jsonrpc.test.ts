import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { isPlainRequest, toJsonRpcMessage } from '../../src/transports/jsonrpc.ts';

// Values shaped like JSON-RPC messages, valid and not: every field the schema looks at, with right and
// wrong types, and keys it does not allow.
const anyJson = fc.jsonValue({ maxDepth: 2 });
const idValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.double(),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.constant(null),
  fc.boolean(),
);
const paramsValue = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'arguments', 'cursor', '_meta', '__proto__', 'x'), anyJson, {
    maxKeys: 3,
  }),
  fc.record({ _meta: fc.oneof(anyJson, fc.record({ progressToken: idValue })) }, { requiredKeys: [] }),
  fc.array(anyJson, { maxLength: 2 }),
  fc.constant(null),
  fc.string({ maxLength: 4 }),
);
const ABSENT = Symbol('absent');
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(fc.constant(ABSENT), arbitrary);
const messageLike = fc
  .record({
    jsonrpc: maybe(fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2)),
    id: maybe(idValue),
    method: maybe(fc.oneof(fc.constantFrom('tools/call', 'ping', 'notifications/cancelled'), fc.integer())),
    params: maybe(paramsValue),
    // Keys of responses, and one the schema does not know: rarely, so that requests are common.
    others: fc.option(
      fc.record(
        {
          result: fc.dictionary(fc.string({ maxLength: 3 }), anyJson, { maxKeys: 2 }),
          error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 4 }) }),
          extra: anyJson,
        },
        { requiredKeys: [] },
      ),
      { freq: 3 },
    ),
  })
  .map(({ others, ...fields }) => ({
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ABSENT)),
    ...others,
  }));
// JSON.parse makes "__proto__" an own key; so do these, through a JSON round trip.
const parsedLike = messageLike.map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('isPlainRequest', () => {
  test('passes only messages that JSONRPCMessageSchema accepts, and returns them as the schema would', () => {
    let passed = 0;
    fc.assert(
      fc.property(parsedLike, (value) => {
        if (!isPlainRequest(value)) return;
        passed++;
        const parsed = JSONRPCMessageSchema.safeParse(value);
        assert.ok(parsed.success, `the schema refuses ${JSON.stringify(value)}`);
        assert.deepEqual(parsed.data, value);
      }),
      { seed: 20_241_122, numRuns: 20_000 },
    );
    assert.ok(passed > 100, `only ${passed} values took the plain path`);
  });

  test('a tools/call request, a ping and a cancellation take the plain path', () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'graphql_query', arguments: { query: '{ a }' } },
      },
      { jsonrpc: '2.0', id: 'x', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'no' } },
    ];
    for (const message of messages) assert.equal(isPlainRequest(message), true, JSON.stringify(message));
  });

  test('what the plain path leaves is checked by the schema', () => {
    const withMeta = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 3 } } };
    assert.equal(isPlainRequest(withMeta), false);
    assert.deepEqual(toJsonRpcMessage(withMeta), withMeta);
    const response = { jsonrpc: '2.0', id: 1, result: {} };
    assert.deepEqual(toJsonRpcMessage(response), response);
    assert.throws(() => toJsonRpcMessage({ jsonrpc: '2.0', id: null, method: 'ping' }));
    assert.throws(() => toJsonRpcMessage({ jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 }));
    assert.throws(() => toJsonRpcMessage({ jsonrpc: '2.0', id: 1, method: 'ping', params: [] }));
  });
});
