// A per-call header name that is really a value (a token pasted where the name goes) is reported by its
// position in the headers input, never echoed to the model, and nothing is sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLibraryApi } from '../../demo/library-api.ts';
import { graphqlHandler, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';

const TOKEN = 'Bearer sk-call-8Jd3Wq7Rn2Ty';

let api: FaultServer;
let mcp: McpSession;

before(async () => {
  const library = createLibraryApi();
  api = await startFaultServer();
  api.route('/graphql', graphqlHandler(library.schema, library.rootValue));
  mcp = await startMcp([`--endpoint=${api.origin}/graphql`]);
});

after(async () => {
  await mcp?.close();
  await api?.close();
});

function assertNoPartOfToken(result: CallToolResult): void {
  const output = JSON.stringify(result);
  for (let start = 0; start + 8 <= TOKEN.length; start++) {
    const part = TOKEN.slice(start, start + 8);
    assert.ok(!output.includes(part), `the result holds ${JSON.stringify(part)}: ${output}`);
  }
}

describe('per-call header names', () => {
  for (const tool of ['graphql_query', 'graphql_introspect']) {
    test(`${tool} MUST NOT echo a header name that is really a value: INVALID_INPUT gives its position`, async () => {
      const before = api.requests.length;
      const result = await mcp.call(tool, {
        ...(tool === 'graphql_query' ? { query: '{ books { title } }' } : {}),
        headers: { 'X-Request-Id': '7', [TOKEN]: 'x' },
      });
      assert.equal(result.isError, true);
      assert.match(
        texts(result)[0] ?? '',
        /^INVALID_INPUT: headers: the 2nd header name is not a valid HTTP header name/,
      );
      assertNoPartOfToken(result);
      assert.equal(api.requests.length, before, 'nothing was sent');
    });
  }

  for (const tool of ['graphql_query', 'graphql_introspect']) {
    test(`${tool} MUST NOT echo a header name that is really a value when its value has the wrong type`, async () => {
      const before = api.requests.length;
      const result = await mcp.call(tool, {
        ...(tool === 'graphql_query' ? { query: '{ books { title } }' } : {}),
        headers: { 'X-Request-Id': '7', [TOKEN]: { nested: true } },
      });
      assert.equal(result.isError, true);
      assert.match(
        texts(result)[0] ?? '',
        /^INVALID_INPUT: headers: the value of the 2nd header \(its name is not shown: it is not a valid HTTP header name\) must be a string/,
      );
      assertNoPartOfToken(result);
      assert.equal(api.requests.length, before, 'nothing was sent');
    });
  }

  test('a valid header name whose value has the wrong type is named', async () => {
    const result = await mcp.call('graphql_query', {
      query: '{ books { title } }',
      headers: { 'X-Token': ['a'] },
    });
    assert.match(texts(result)[0] ?? '', /^INVALID_INPUT: headers\.X-Token must be a string/);
  });

  test('a valid header name with an invalid value is still named', async () => {
    const result = await mcp.call('graphql_query', {
      query: '{ books { title } }',
      headers: { 'X-Token': `${TOKEN}\r\nX-Injected: 1` },
    });
    assert.match(
      texts(result)[0] ?? '',
      /^INVALID_INPUT: headers: header X-Token has a value with a line break/,
    );
    assertNoPartOfToken(result);
  });
});
