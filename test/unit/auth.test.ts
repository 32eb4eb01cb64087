// Who makes a call (src/auth/principal.ts), the shared token (src/auth/shared-token.ts), and where the JWT
// verifier finds the issuer's keys (src/auth/jwt-verifier.ts, src/credentials/discovery.ts).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { JwtVerifier } from '../../src/auth/jwt-verifier.ts';
import { principalOf } from '../../src/auth/principal.ts';
import { Refusal } from '../../src/auth/refusal.ts';
import { SharedToken } from '../../src/auth/shared-token.ts';

describe('principalOf', () => {
  const token = (extra: Record<string, unknown>, clientId = '') => ({
    token: 't',
    clientId,
    scopes: [],
    extra,
  });

  test('is the issuer and subject of an OAuth user', () => {
    assert.notEqual(
      principalOf(token({ issuer: 'https://a', subject: 'alice' })),
      principalOf(token({ issuer: 'https://b', subject: 'alice' })),
    );
  });

  test("MUST NOT let a client id pass for a user's subject", () => {
    assert.notEqual(
      principalOf(token({ issuer: 'https://a', subject: 'alice' })),
      principalOf(token({ issuer: 'https://a' }, 'alice')),
    );
  });

  test('is undefined where nobody authenticates', () => {
    assert.equal(principalOf(undefined), undefined);
  });
});

describe('SharedToken', () => {
  const shared = new SharedToken('token-0123456789abcdef');

  test('lets the token through as one principal, whoever holds it', async () => {
    const caller = await shared.authenticate('Bearer token-0123456789abcdef');
    assert.ok(!(caller instanceof Refusal));
    assert.equal(
      principalOf(caller),
      principalOf((await shared.authenticate('bearer token-0123456789abcdef')) as never),
    );
  });

  test('refuses any other value with a 401 and a challenge', async () => {
    for (const header of [undefined, 'Bearer nope', 'token-0123456789abcdef', 'Basic dG9rZW4=']) {
      const refusal = await shared.authenticate(header);
      assert.ok(refusal instanceof Refusal);
      assert.equal(refusal.status, 401);
    }
  });
});

describe("JwtVerifier finding the issuer's keys from its metadata", () => {
  // An issuer on 127.0.0.1 whose metadata (at both well-known addresses) is what the test sets.
  let metadata: (issuer: string) => unknown = () => ({});
  let server: Server;
  let issuer: URL;
  before(async () => {
    server = createServer((req, res) => {
      if (!req.url?.includes('/.well-known/')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const answer = metadata(issuer.href);
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The refusal of a token, where the keys cannot be had. */
  async function refusal(): Promise<OAuthError> {
    const verifier = new JwtVerifier({
      issuer,
      audience: 'https://mcp.example.com/mcp',
      scopes: [],
      jwksUri: undefined,
      toolScopes: new Map(),
    });
    const error = await verifier.verifyAccessToken('a.b.c').then(
      () => assert.fail('a token was accepted without keys'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof OAuthError);
    assert.equal(error.code, OAuthErrorCode.TemporarilyUnavailable);
    return error;
  }

  test('refuses metadata that names another issuer, saying where it was read', async () => {
    metadata = () => ({ issuer: 'https://other.example.com', jwks_uri: `${issuer.href}jwks` });
    const { message } = await refusal();
    assert.match(message, /\/\.well-known\/oauth-authorization-server .*names another issuer/);
  });

  test('refuses a jwks_uri that holds user-info, or is not https off loopback', async () => {
    metadata = (href) => ({ issuer: href, jwks_uri: `http://user:pw@127.0.0.1:1/jwks` });
    assert.match((await refusal()).message, /its jwks_uri holds user-info or a fragment/);
    metadata = (href) => ({ issuer: href, jwks_uri: 'http://keys.example.com/jwks' });
    assert.match((await refusal()).message, /its jwks_uri is not an https URL/);
  });

  test('reads no more than 256 KiB of metadata', async () => {
    metadata = (href) => JSON.stringify({ issuer: href, jwks_uri: `${href}jwks`, pad: 'x'.repeat(300_000) });
    assert.match((await refusal()).message, /its answer is over 262144 bytes/);
  });
});
