import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMcp, texts } from '../fixtures/mcp.ts';

// The https path of the HTTP client (loaded on the first https request) against a real TLS server on loopback.
const tls = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/tls');

describe('GraphQL over https', () => {
  let server: Server;
  let endpoint: string;
  const authorizations: Array<string | undefined> = [];

  before(async () => {
    server = createServer(
      { key: readFileSync(join(tls, 'localhost.key')), cert: readFileSync(join(tls, 'localhost.crt')) },
      (req, res) => {
        authorizations.push(req.headers.authorization);
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":{"secure":true}}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `https://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test('a certificate the system does not trust is a NETWORK_ERROR naming the TLS code', async () => {
    const session = await startMcp([`--endpoint=${endpoint}`]);
    try {
      const [text] = texts(await session.call('graphql_query', { query: '{ secure }' }));
      assert.match(
        text!,
        /^NETWORK_ERROR: request to https:\/\/127\.0\.0\.1:\d+\/graphql failed \(DEPTH_ZERO_SELF_SIGNED_CERT/,
      );
    } finally {
      await session.close();
    }
  });

  test('with the certificate trusted (NODE_EXTRA_CA_CERTS) the query runs over TLS with the startup headers', async () => {
    const session = await startMcp(
      [`--endpoint=${endpoint}`, '--headers={"Authorization":"Bearer over-tls-1"}'],
      {
        NODE_EXTRA_CA_CERTS: join(tls, 'localhost.crt'),
      },
    );
    try {
      const result = await session.call('graphql_query', { query: '{ secure }' });
      assert.deepEqual(result.structuredContent, { data: { secure: true } });
      assert.equal(authorizations.at(-1), 'Bearer over-tls-1');
      const again = await session.call('graphql_query', { query: '{ secure }' });
      assert.equal(again.isError, undefined);
    } finally {
      await session.close();
    }
  });
});
