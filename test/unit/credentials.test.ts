import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { ToolError } from '../../src/common/errors.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { ClientCredentialsAuth, TokenExchangeAuth } from '../../src/config/types.ts';
import {
  ClientCredentials,
  credentialsOf,
  TokenExchange,
  type TokenSubject,
  type ObtainedHeader,
} from '../../src/credentials/credentials.ts';
import { TokenCache } from '../../src/credentials/token-cache.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import {
  JWT_BEARER,
  startOidc,
  startProtectedApi,
  TOKEN_EXCHANGE,
  type ProtectedApi,
  type Refusal,
  type TestOidc,
} from '../fixtures/oidc.ts';

// The credentials of `auth` against a real authorization server (oidc-provider, test/fixtures/oidc.ts) and a
// GraphQL API that verifies what it receives against the provider's keys. No part is mocked; the cache's clock
// is a value the tests set, so that lifetimes are passed without waiting.

let oidc: TestOidc;
let api: ProtectedApi;

before(async () => {
  oidc = await startOidc();
  api = await startProtectedApi(oidc);
});
after(async () => {
  await api.close();
  await oidc.close();
});
beforeEach(() => {
  oidc.requests.clear();
  oidc.exchanged.length = 0;
  oidc.refuse = undefined;
  oidc.hang = false;
  oidc.ttl = 300;
  api.requests.length = 0;
});

function exchangeAuth(settings: Partial<TokenExchangeAuth> = {}): TokenExchangeAuth {
  return {
    kind: 'tokenExchange',
    grant: 'token-exchange',
    source: 'test.json:1: apis.crm.auth.tokenExchange',
    tokenEndpoint: new URL(oidc.tokenEndpoint),
    issuer: undefined,
    clientId: oidc.basicClient.clientId,
    clientSecret: oidc.basicClient.clientSecret,
    audience: oidc.apiAudiences[0],
    resource: undefined,
    scope: [],
    header: 'Authorization',
    clientAuth: 'client_secret_basic',
    timeout: 5000,
    ...settings,
  };
}

function clientCredentialsAuth(settings: Partial<ClientCredentialsAuth> = {}): ClientCredentialsAuth {
  const { grant: _, ...common } = exchangeAuth();
  return { ...common, kind: 'clientCredentials', audience: undefined, ...settings };
}

/** A clock the tests move. */
function clock() {
  let now = Date.now();
  return { now: () => now, pass: (ms: number) => (now += ms) };
}

async function caller(sub: string, expiresIn = 3600): Promise<TokenSubject> {
  const token = await oidc.userToken(sub, { expiresIn });
  return { token, expiresAt: decodeJwt(token).exp, key: `user:${sub}` };
}

/** What the API made of a request with this header: the claims it verified, or why it refused them. */
async function atApi(header: ObtainedHeader) {
  const response = await fetch(api.url, {
    method: 'POST',
    headers: { [header.name]: header.value, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ me { sub actor } }' }),
  });
  assert.equal(response.status, 200, JSON.stringify(api.requests.at(-1)));
  return api.requests.at(-1)!.claims!;
}

function exchanges(): number {
  return oidc.requests.get(TOKEN_EXCHANGE) ?? 0;
}

/** The ToolError a failed call gave, checked to hold none of `secrets`. */
async function failure(pending: Promise<unknown>, secrets: readonly string[]): Promise<ToolError> {
  const error = await pending.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ToolError, String(error));
  for (const secret of secrets)
    assert.ok(!error.message.includes(secret), `a secret is shown: ${error.message}`);
  return error;
}

describe('auth.tokenExchange against oidc-provider', () => {
  test("gives alice's calls a token with her own sub and the API's audience, and bob's his", async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const alice = await caller('alice');
    const bob = await caller('bob');
    const forAlice = await credentials.header(alice);
    const forBob = await credentials.header(bob);
    assert.equal(forAlice.name, 'Authorization');
    assert.equal(forAlice.value, `Bearer ${forAlice.token}`);
    assert.deepEqual(await atApi(forAlice), {
      sub: 'alice',
      aud: oidc.apiAudiences[0],
      act: { sub: oidc.basicClient.clientId },
    });
    assert.deepEqual(await atApi(forBob), {
      sub: 'bob',
      aud: oidc.apiAudiences[0],
      act: { sub: oidc.basicClient.clientId },
    });
    assert.notEqual(forAlice.token, alice.token, 'the MCP token itself is never what the API gets');
    assert.equal(exchanges(), 2);
  });

  test('MUST make one exchange for five concurrent calls of one user', async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const alice = await caller('alice');
    const headers = await Promise.all(Array.from({ length: 5 }, () => credentials.header(alice)));
    assert.equal(new Set(headers.map((header) => header.token)).size, 1);
    assert.equal(exchanges(), 1);
    assert.equal(oidc.exchanged.length, 1);
  });

  test("keeps a user's token for their later calls, and each user's apart", async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const alice = await caller('alice');
    const bob = await caller('bob');
    const first = await credentials.header(alice);
    await credentials.header(bob);
    assert.equal((await credentials.header(alice)).token, first.token);
    assert.notEqual((await credentials.header(bob)).token, first.token);
    assert.equal(exchanges(), 2);
  });

  test("makes a new exchange when the user's token changed", async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const first = await credentials.header(await caller('alice'));
    const second = await credentials.header(await caller('alice'));
    assert.notEqual(second.token, first.token);
    assert.equal(exchanges(), 2);
  });

  test("keeps one user's two sign-ins (two clients) apart, without an exchange on every call", async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const desktop = await caller('alice');
    const editor = await caller('alice');
    const tokens = [];
    for (const sign of [desktop, editor, desktop, editor])
      tokens.push((await credentials.header(sign)).token);
    assert.equal(exchanges(), 2);
    assert.deepEqual([tokens[2], tokens[3]], [tokens[0], tokens[1]]);
  });

  test('MUST NOT send a token in the last margin of its expires_in, and replaces it ahead in the background', async () => {
    const time = clock();
    const credentials = new TokenExchange('crm', exchangeAuth(), { now: time.now });
    const alice = { ...(await caller('alice')), expiresAt: undefined };
    const first = await credentials.header(alice);
    time.pass(200_000);
    assert.equal((await credentials.header(alice)).token, first.token, 'kept for most of its 300 s');
    assert.equal(exchanges(), 1);
    // In its last quarter (before the 30 s margin): still sent, while a new one is asked for.
    time.pass(10_000);
    assert.equal((await credentials.header(alice)).token, first.token);
    const renewed = await until(
      () => credentials.header(alice),
      (header) => header.token !== first.token,
    );
    assert.equal(exchanges(), 2);
    // Within 30 s of the renewed token's end, it is no longer sent: the call waits for a new one.
    time.pass(271_000);
    assert.notEqual((await credentials.header(alice)).token, renewed.token);
    assert.equal(exchanges(), 3);
  });

  test("MUST NOT keep a token past the user's own token's expiry", async () => {
    const time = clock();
    const credentials = new TokenExchange('crm', exchangeAuth(), { now: time.now });
    const alice = { ...(await caller('alice')), expiresAt: Math.floor(time.now() / 1000) + 60 };
    const first = await credentials.header(alice);
    time.pass(30_000);
    assert.equal((await credentials.header(alice)).token, first.token);
    assert.equal(exchanges(), 1, 'nothing is renewed ahead: a new token could not outlive the user’s either');
    time.pass(31_000);
    assert.notEqual((await credentials.header(alice)).token, first.token);
    assert.equal(exchanges(), 2);
  });

  test('authenticates with client_secret_basic and with client_secret_post', async () => {
    const alice = await caller('alice');
    const basic = await new TokenExchange('crm', exchangeAuth()).header(alice);
    const post = await new TokenExchange(
      'crm',
      exchangeAuth({
        clientId: oidc.postClient.clientId,
        clientSecret: oidc.postClient.clientSecret,
        clientAuth: 'client_secret_post',
      }),
    ).header(alice);
    assert.deepEqual((await atApi(basic)).act, { sub: oidc.basicClient.clientId });
    assert.deepEqual((await atApi(post)).act, { sub: oidc.postClient.clientId });
  });

  test('finds the token endpoint in the metadata of its issuer', async () => {
    const credentials = new TokenExchange(
      'crm',
      exchangeAuth({ tokenEndpoint: undefined, issuer: new URL(oidc.issuer) }),
    );
    assert.equal((await atApi(await credentials.header(await caller('alice')))).sub, 'alice');
  });

  test("runs Entra's on-behalf-of (jwt-bearer) with the API's scope", async () => {
    const credentials = new TokenExchange(
      'crm',
      exchangeAuth({
        grant: 'on-behalf-of',
        audience: undefined,
        scope: [`${oidc.apiAudiences[0]}/.default`],
      }),
    );
    const claims = await atApi(await credentials.header(await caller('bob')));
    assert.deepEqual([claims.sub, claims.aud], ['bob', oidc.apiAudiences[0]]);
    assert.equal(oidc.requests.get(JWT_BEARER), 1);
  });

  const REFUSALS: Array<[Refusal, RegExp]> = [
    ['invalid_grant', /sign in again/],
    ['invalid_target', /does not issue tokens for crm's audience or resource/],
    ['invalid_scope', /does not grant the scopes asked for/],
    ['unauthorized_client', /may not use the token-exchange grant/],
    ['access_denied', /policy does not let you act at crm/],
  ];
  for (const [error, advice] of REFUSALS) {
    test(`MUST give no token and say why when the provider answers ${error}`, async () => {
      const credentials = new TokenExchange('crm', exchangeAuth());
      const alice = await caller('alice');
      oidc.refuse = { error, echo: true };
      const refused = await failure(credentials.header(alice), [alice.token, oidc.basicClient.clientSecret]);
      assert.equal(refused.code, 'CREDENTIALS_UNAVAILABLE');
      assert.match(
        refused.message,
        new RegExp(
          `^the identity provider refused to exchange your sign-in for a token of API crm: ${error} \\("refused as the test asked: \\[redacted\\] from graphql-mcp:\\[redacted\\]"\\); nothing was sent to crm\\. `,
        ),
      );
      assert.match(refused.message, advice);
      oidc.refuse = undefined;
      assert.ok(await credentials.header(alice), 'a refusal is not kept: the next call asks again');
    });
  }

  test("refuses, through the provider's own checks, a token for another audience, a wrong secret, an unknown API", async () => {
    const alice = await caller('alice');
    const otherAudience = await oidc.userToken('alice', { audience: oidc.apiAudiences[0] });
    const grant = await failure(
      new TokenExchange('crm', exchangeAuth()).header({ ...alice, token: otherAudience }),
      [otherAudience],
    );
    assert.match(grant.message, /: invalid_grant \("grant request is invalid"\)/);
    const client = await failure(
      new TokenExchange('crm', exchangeAuth({ clientSecret: 'not-the-Secret-1234' })).header(alice),
      ['not-the-Secret-1234', alice.token],
    );
    assert.match(client.message, /: invalid_client .*did not accept this server's client credentials/);
    const target = await failure(
      new TokenExchange('crm', exchangeAuth({ audience: 'https://other.example.com/' })).header(alice),
      [alice.token],
    );
    assert.match(target.message, /: invalid_target /);
  });

  test('MUST give no token and say so when the provider is down', async () => {
    const down = await startOidc();
    const alice = { token: await down.userToken('alice'), expiresAt: undefined, key: 'alice' };
    const credentials = new TokenExchange(
      'crm',
      exchangeAuth({ tokenEndpoint: new URL(down.tokenEndpoint) }),
    );
    await down.down();
    const error = await failure(credentials.header(alice), [alice.token]);
    assert.equal(error.code, 'CREDENTIALS_UNAVAILABLE');
    assert.match(
      error.message,
      /^the identity provider at http:\/\/127\.0\.0\.1:\d+\/token could not be reached to exchange your sign-in for a token of API crm \(ECONNREFUSED\); nothing was sent to crm\. Try again later$/,
    );
  });

  test('MUST give no token and say so when the provider hangs past the timeout', async () => {
    const credentials = new TokenExchange('crm', exchangeAuth({ timeout: 200 }));
    const alice = await caller('alice');
    oidc.hang = true;
    const error = await failure(credentials.header(alice), [alice.token]);
    assert.match(
      error.message,
      /^the identity provider at http:\/\/127\.0\.0\.1:\d+\/token did not answer within 200 ms to exchange your sign-in for a token of API crm; nothing was sent to crm/,
    );
  });

  test('MUST give no token for an answer that is not OAuth, quoting none of it', async () => {
    const proxy: FaultServer = await startFaultServer();
    try {
      const alice = await caller('alice');
      const html = proxy.route(
        '/token',
        respond.text(502, 'text/html', `<h1>Bad gateway</h1>${alice.token}`),
      );
      const error = await failure(
        new TokenExchange('crm', exchangeAuth({ tokenEndpoint: new URL(html) })).header(alice),
        [alice.token],
      );
      assert.match(
        error.message,
        /gave no usable answer .*: it answered HTTP 502 without an OAuth error; nothing was sent to crm\. The operator must check apis\.crm\.auth$/,
      );
      const basic = proxy.route('/dpop', respond.json({ access_token: 'abc.def', token_type: 'DPoP' }));
      const dpop = await failure(
        new TokenExchange('crm', exchangeAuth({ tokenEndpoint: new URL(basic) })).header(alice),
        ['abc.def'],
      );
      assert.match(dpop.message, /its token is not a Bearer token \(token_type\)/);
    } finally {
      await proxy.close();
    }
  });

  test('MUST NOT show any token or secret in a message, whatever the provider echoes', async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const alice = await caller('alice');
    const kept = await credentials.header(alice);
    const changed = await caller('alice');
    oidc.refuse = { error: 'invalid_grant', echo: true };
    const error = await failure(credentials.header(changed), [
      changed.token,
      alice.token,
      kept.token,
      oidc.basicClient.clientSecret,
    ]);
    assert.match(error.message, /\[redacted\]/);
  });

  test('MUST NOT exchange anything for a call without a verified user', async () => {
    const error = await failure(new TokenExchange('crm', exchangeAuth()).header(undefined), []);
    assert.equal(error.code, 'CREDENTIALS_UNAVAILABLE');
    assert.match(error.message, /API crm acts as each user .* no verified user: nothing was sent/);
    assert.equal(exchanges(), 0);
  });

  test('stops the wait of a cancelled call alone: the others get the token', async () => {
    const credentials = new TokenExchange('crm', exchangeAuth());
    const alice = await caller('alice');
    const controller = new AbortController();
    const cancelled = credentials.header(alice, controller.signal);
    const waiting = credentials.header(alice);
    controller.abort();
    assert.equal((await failure(cancelled, [])).code, 'CANCELLED');
    assert.equal((await atApi(await waiting)).sub, 'alice');
    assert.equal(exchanges(), 1);
  });
});

describe('auth.clientCredentials against oidc-provider', () => {
  test("gives every call the server's own token for the API, asked for once", async () => {
    const credentials = new ClientCredentials(
      'crm',
      clientCredentialsAuth({ resource: new URL(oidc.apiAudiences[0]!) }),
    );
    const headers = await Promise.all([credentials.header(undefined), credentials.header(undefined)]);
    assert.equal(headers[0]!.token, headers[1]!.token);
    assert.equal((await credentials.header(undefined)).token, headers[0]!.token);
    assert.deepEqual(await atApi(headers[0]!), {
      sub: oidc.basicClient.clientId,
      aud: oidc.apiAudiences[0],
      act: undefined,
    });
    assert.equal(oidc.requests.get('client_credentials'), 1);
  });

  test('authenticates with client_secret_post, and sends the header auth names', async () => {
    const credentials = new ClientCredentials(
      'crm',
      clientCredentialsAuth({
        clientId: oidc.postClient.clientId,
        clientSecret: oidc.postClient.clientSecret,
        clientAuth: 'client_secret_post',
        header: 'X-Crm-Token',
      }),
    );
    const header = await credentials.header(undefined);
    assert.equal(header.name, 'X-Crm-Token');
    assert.equal(decodeJwt(header.token).sub, oidc.postClient.clientId);
  });

  test('is replaced before it expires, while the one in hand is still sent', async () => {
    const time = clock();
    oidc.ttl = 100;
    const credentials = new ClientCredentials('crm', clientCredentialsAuth(), { now: time.now });
    const first = await credentials.header(undefined);
    // 100 s, a margin of 10 s: used to 90 s, renewed from 67.5 s.
    time.pass(70_000);
    assert.equal((await credentials.header(undefined)).token, first.token);
    await until(
      () => credentials.header(undefined),
      (header) => header.token !== first.token,
    );
    assert.equal(oidc.requests.get('client_credentials'), 2);
  });

  test("says why the server's token was refused", async () => {
    oidc.refuse = { error: 'unauthorized_client', echo: true };
    const error = await failure(new ClientCredentials('crm', clientCredentialsAuth()).header(undefined), [
      oidc.basicClient.clientSecret,
    ]);
    assert.match(
      error.message,
      /^the identity provider refused to issue this server's token for API crm: unauthorized_client .*; nothing was sent to crm\. This server's client may not use the client-credentials grant: the operator must change it at the provider or in apis\.crm\.auth$/,
    );
  });
});

describe('credentialsOf', () => {
  test("gives an API's configuration one credentials for all its calls, and none without auth", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'graphql-mcp-credentials-')), 'config.json');
    const auth = {
      clientCredentials: {
        tokenEndpoint: oidc.tokenEndpoint,
        clientId: oidc.basicClient.clientId,
        clientSecret: '${env:SECRET}',
      },
    };
    writeFileSync(
      path,
      JSON.stringify({ apis: { crm: { endpoint: api.url, auth }, plain: { endpoint: api.url } } }),
    );
    const loaded = loadConfig([`--config=${path}`], { SECRET: oidc.basicClient.clientSecret });
    assert.ok(loaded.kind === 'serve');
    const [crm, plain] = loaded.apis;
    assert.ok(credentialsOf(crm!) instanceof ClientCredentials);
    assert.equal(credentialsOf(crm!), credentialsOf(crm!));
    assert.equal(credentialsOf(plain!), undefined);
    assert.equal((await atApi(await credentialsOf(crm!)!.header(undefined))).sub, oidc.basicClient.clientId);
  });
});

describe('the token cache', () => {
  test('forgets the least recently used user beyond its bound', async () => {
    const cache = new TokenCache(2);
    let asked = 0;
    const obtain = async () => ({ token: `t${++asked}`, lifetime: 60_000 });
    await cache.get('a', obtain);
    await cache.get('b', obtain);
    await cache.get('a', obtain);
    await cache.get('c', obtain);
    assert.equal(cache.size, 2);
    assert.equal(await cache.get('a', obtain), 't1', 'a was used last: kept');
    assert.equal(await cache.get('b', obtain), 't4', 'b was forgotten: asked again');
  });

  test('keeps no token whose lifetime is unknown, beyond the calls that waited for it', async () => {
    const cache = new TokenCache(10);
    let asked = 0;
    const obtain = async () => ({ token: `t${++asked}`, lifetime: undefined });
    const [a, b] = await Promise.all([cache.get('a', obtain), cache.get('a', obtain)]);
    assert.deepEqual([a, b], ['t1', 't1']);
    assert.equal(await cache.get('a', obtain), 't2');
    assert.equal(cache.size, 0);
  });
});

/** What `read` gives once `done` holds of it (read every 10 ms, up to 5 s): for work started in the background. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the background work did not happen');
}
