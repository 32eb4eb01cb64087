import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { isPlainRequest, plainDispatch, readMessage } from '../../src/transports/jsonrpc.ts';

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
    assert.deepEqual(readMessage(withMeta), { message: withMeta, plain: false });
    const response = { jsonrpc: '2.0', id: 1, result: {} };
    assert.deepEqual(readMessage(response), { message: response, plain: false });
    assert.throws(() => readMessage({ jsonrpc: '2.0', id: null, method: 'ping' }));
    assert.throws(() => readMessage({ jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 }));
    assert.throws(() => readMessage({ jsonrpc: '2.0', id: 1, method: 'ping', params: [] }));
  });
});

describe('plainDispatch', () => {
  test("sends a plain message where the SDK's type guards would: a request if it has an id, else a notification", () => {
    fc.assert(
      fc.property(parsedLike, (value) => {
        if (!isPlainRequest(value)) return;
        const request = 'id' in value;
        assert.equal(isJSONRPCRequest(value), request, JSON.stringify(value));
        assert.equal(isJSONRPCNotification(value), !request, JSON.stringify(value));
        assert.equal(isJSONRPCResultResponse(value), false);
        assert.equal(isJSONRPCErrorResponse(value), false);
      }),
      { seed: 20_261_123, numRuns: 5_000 },
    );
  });

  test("finds the SDK server's dispatch", () => {
    const { server } = new McpServer({ name: 'test', version: '0' });
    assert.ok(plainDispatch(server), 'the SDK server has no _onrequest and _onnotification');
  });

  test("calls the server's dispatch as its own methods", () => {
    const { server } = new McpServer({ name: 'test', version: '0' });
    const seen: string[] = [];
    const spied = server as unknown as Record<'_onrequest' | '_onnotification', (m: JSONRPCMessage) => void>;
    spied._onrequest = function (this: unknown, message) {
      seen.push(`request ${this === server} ${JSON.stringify(message)}`);
    };
    spied._onnotification = function (this: unknown, message) {
      seen.push(`notification ${this === server} ${JSON.stringify(message)}`);
    };
    const dispatch = plainDispatch(server)!;
    dispatch({ jsonrpc: '2.0', id: 0, method: 'ping' });
    dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.deepEqual(seen, [
      'request true {"jsonrpc":"2.0","id":0,"method":"ping"}',
      'notification true {"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]);
  });

  test("is absent when the SDK's Protocol has no such methods", () => {
    assert.equal(plainDispatch({ _onrequest() {} }), undefined);
  });
});
