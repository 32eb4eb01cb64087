import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { configSchema } from '../../scripts/config-schema.ts';
import { authKeys } from '../../src/config/auth.ts';
import { loadConfig } from '../../src/config/load.ts';
import { ConfigError } from '../../src/config/parsers.ts';
import { operatorRedactor, secretsOf } from '../../src/redaction/redactor.ts';

// `apis.<name>.auth` in a config file: read, checked against the server's mode and the API's headers, and its
// client secret hidden like every configured secret.

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-config-auth-'));
let files = 0;
const SECRET = 'cl13nt-S3cret-value-98765';
const ENV = { CRM_SECRET: SECRET };
/** Remote mode with OAuth: what a token exchange needs. */
const OAUTH = [
  '--transport=http',
  '--oauthIssuer=https://sso.example.com/realms/acme',
  '--oauthAudience=https://mcp.example.com/mcp',
];

function load(content: unknown, argv: readonly string[] = OAUTH, env: NodeJS.ProcessEnv = ENV) {
  const path = join(dir, `config-${++files}.json`);
  writeFileSync(path, JSON.stringify(content, null, 2));
  const loaded = loadConfig([`--config=${path}`, ...argv], env);
  assert.equal(loaded.kind, 'serve');
  return loaded;
}

function refusal(content: unknown, argv: readonly string[] = OAUTH, env: NodeJS.ProcessEnv = ENV): string {
  try {
    load(content, argv, env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.doesNotMatch(error.message, /[\r\n]/);
    assert.ok(!error.message.includes(SECRET), `the secret is shown: ${error.message}`);
    return error.message;
  }
  assert.fail('expected a ConfigError');
}

/** A config file with one API, `crm`, whose auth is `auth`. */
function withAuth(auth: unknown, api: Record<string, unknown> = {}, top: Record<string, unknown> = {}) {
  return { ...top, apis: { crm: { endpoint: 'https://crm.example.com/graphql', auth, ...api } } };
}

const exchange = (settings: Record<string, unknown> = {}) => ({
  tokenExchange: {
    tokenEndpoint: 'https://sso.example.com/realms/acme/protocol/openid-connect/token',
    clientId: 'graphql-mcp',
    clientSecret: '${env:CRM_SECRET}',
    audience: 'crm',
    ...settings,
  },
});

describe('apis.<name>.auth', () => {
  test('reads a token exchange, with the defaults of what it does not say', () => {
    const auth = load(withAuth(exchange())).apis[0]!.auth;
    assert.ok(auth?.kind === 'tokenExchange');
    assert.equal(
      auth.tokenEndpoint?.href,
      'https://sso.example.com/realms/acme/protocol/openid-connect/token',
    );
    assert.equal(auth.issuer, undefined);
    assert.equal(auth.clientId, 'graphql-mcp');
    assert.equal(auth.clientSecret, SECRET);
    assert.equal(auth.audience, 'crm');
    assert.deepEqual(
      [auth.header, auth.clientAuth, auth.timeout, auth.grant, auth.scope],
      ['Authorization', 'client_secret_basic', 5000, 'token-exchange', []],
    );
    assert.match(auth.source, /config-\d+\.json:\d+: apis\.crm\.auth\.tokenExchange$/);
  });

  test('reads client credentials with every key, usable on stdio', () => {
    const auth = load(
      withAuth({
        clientCredentials: {
          issuer: 'https://sso.example.com/realms/acme',
          clientId: 'graphql-mcp',
          clientSecret: '${env:CRM_SECRET}',
          resource: 'https://crm.example.com/',
          scope: ['crm:read', 'crm:write'],
          header: 'X-Crm-Token',
          clientAuth: 'client_secret_post',
          timeout: 2000,
        },
      }),
      [],
    ).apis[0]!.auth;
    assert.ok(auth?.kind === 'clientCredentials');
    assert.equal(auth.issuer?.href, 'https://sso.example.com/realms/acme');
    assert.equal(auth.resource?.href, 'https://crm.example.com/');
    assert.deepEqual(auth.scope, ['crm:read', 'crm:write']);
    assert.deepEqual(
      [auth.header, auth.clientAuth, auth.timeout],
      ['X-Crm-Token', 'client_secret_post', 2000],
    );
  });

  test("reads Entra's on-behalf-of, which names the API by its scope", () => {
    const auth = load(
      withAuth(exchange({ audience: undefined, grant: 'on-behalf-of', scope: 'api://crm-app/.default' })),
    ).apis[0]!.auth;
    assert.ok(auth?.kind === 'tokenExchange');
    assert.equal(auth.grant, 'on-behalf-of');
    assert.deepEqual(auth.scope, ['api://crm-app/.default']);
  });

  test('MUST refuse a token exchange where no user is verified, naming the mode it needs', () => {
    const needs =
      /apis\.crm\.auth\.tokenExchange needs remote mode with OAuth \(--transport=http with --oauthIssuer/;
    const stdio = refusal(withAuth(exchange()), []);
    assert.match(stdio, needs);
    assert.match(stdio, /on stdio nobody signs in/);
    const token = refusal(withAuth(exchange()), [
      '--transport=http',
      '--httpToken=a-shared-token-0123456789',
    ]);
    assert.match(token, needs);
    assert.match(token, /with --httpToken every user holds the same token/);
    const open = refusal(withAuth(exchange()), [
      '--transport=http',
      '--host=0.0.0.0',
      '--allowUnauthenticated',
    ]);
    assert.match(open, /with --allowUnauthenticated nobody is verified here/);
    assert.match(
      refusal(withAuth(exchange()), ['--transport=http']),
      /without --oauthIssuer nobody signs in/,
    );
  });

  test('MUST refuse a configured header of the name auth sends its token in, wherever it is set', () => {
    assert.match(
      refusal(withAuth(exchange(), { headers: { authorization: 'Bearer ${env:CRM_SECRET}' } })),
      /apis\.crm\.headers sets Authorization, the header apis\.crm\.auth sends its token in: remove it \(an API with auth never gets a configured Authorization, not even as a fallback\)/,
    );
    assert.match(
      refusal(withAuth(exchange({ header: 'X-Api-Key' }), {}, { headers: { 'x-api-key': 'k-1234567890' } })),
      /config-\d+\.json:\d+: headers sets X-Api-Key/,
    );
    // Another header beside the token is the operator's to send.
    const api = load(withAuth(exchange(), { headers: { 'X-Tenant': 'acme' } })).apis[0]!;
    assert.deepEqual(api.headers.names(), ['X-Tenant']);
  });

  test('MUST refuse a forwarded header sent under the name auth sets', () => {
    assert.match(
      refusal(withAuth(exchange(), { forwardHeaders: ['X-Crm:Authorization'] })),
      /apis\.crm\.forwardHeaders forwards X-Crm as Authorization, the header apis\.crm\.auth sends its token in: forward it under another name/,
    );
  });

  test('MUST NOT accept a client secret written into the file, and never quotes it', () => {
    const message = refusal(withAuth(exchange({ clientSecret: SECRET })));
    assert.match(
      message,
      /apis\.crm\.auth\.tokenExchange\.clientSecret must be written as "\$\{env:NAME\}", so that the secret stays out of the file/,
    );
  });

  test('names a missing or misspelt key, and the one meant', () => {
    assert.match(
      refusal(withAuth(exchange({ clientSecret: undefined }))),
      /apis\.crm\.auth\.tokenExchange needs clientSecret/,
    );
    assert.match(
      refusal(withAuth(exchange({ client_id: 'x' }))),
      /apis\.crm\.auth\.tokenExchange\.client_id is no key of tokenExchange; did you mean clientId\?/,
    );
    assert.match(
      refusal(withAuth(exchange({ audiences: 'x' }))),
      /audiences is no key of tokenExchange \(its keys: tokenEndpoint, issuer, clientId, clientSecret, audience,/,
    );
    assert.match(
      refusal(withAuth({ tokenexchange: {} })),
      /is no kind of auth; did you mean tokenExchange\?/,
    );
    assert.match(
      refusal(withAuth({})),
      /apis\.crm\.auth must be \{"tokenExchange": \{…\}\} or \{"clientCredentials"/,
    );
    assert.match(
      refusal(withAuth({ clientCredentials: { ...exchange().tokenExchange, grant: 'on-behalf-of' } }), []),
      /clientCredentials\.grant is no key of clientCredentials/,
    );
  });

  test('needs exactly one of tokenEndpoint and issuer, each https (http only on loopback)', () => {
    assert.match(
      refusal(withAuth(exchange({ tokenEndpoint: undefined }))),
      /tokenExchange needs tokenEndpoint or issuer \(whose metadata names it\): neither is given/,
    );
    assert.match(
      refusal(withAuth(exchange({ issuer: 'https://sso.example.com/' }))),
      /needs tokenEndpoint or issuer .*: give one, not both/,
    );
    assert.match(
      refusal(withAuth(exchange({ tokenEndpoint: 'http://sso.example.com/token' }))),
      /tokenExchange\.tokenEndpoint must be an https URL \(http only on a loopback host\)/,
    );
    const auth = load(withAuth(exchange({ tokenEndpoint: 'http://127.0.0.1:8080/token?p=b2c_1_signin' })))
      .apis[0]!.auth;
    assert.equal(auth?.tokenEndpoint?.href, 'http://127.0.0.1:8080/token?p=b2c_1_signin');
  });

  test('checks each value: the header name, clientAuth, timeout, grant, resource', () => {
    assert.match(
      refusal(withAuth(exchange({ header: 'Bad Name' }))),
      /header: it is not a valid HTTP header name/,
    );
    assert.match(
      refusal(withAuth(exchange({ clientAuth: 'private_key_jwt' }))),
      /clientAuth must be client_secret_basic or client_secret_post/,
    );
    assert.match(
      refusal(withAuth(exchange({ timeout: 0 }))),
      /timeout must be a whole number from 1 to 60000/,
    );
    assert.match(
      refusal(withAuth(exchange({ grant: 'obo' }))),
      /grant must be token-exchange or on-behalf-of/,
    );
    assert.match(refusal(withAuth(exchange({ resource: 'crm#x' }))), /resource must be an absolute URI/);
    assert.match(
      refusal(withAuth(exchange({ grant: 'on-behalf-of' }))),
      /grant: on-behalf-of needs scope, the API's, e\.g\. "api:\/\/<app-id>\/\.default"/,
    );
    assert.match(
      refusal(withAuth(exchange({ grant: 'on-behalf-of', scope: 'api://crm/.default' }))),
      /audience: on-behalf-of names the API by scope alone; remove audience/,
    );
  });

  test('is set per API only', () => {
    assert.match(
      refusal({ auth: exchange(), apis: { crm: { endpoint: 'https://crm.example.com/' } } }),
      /config-\d+\.json:\d+: auth is set per API: apis\.<name>\.auth/,
    );
  });

  test("makes the client secret one of the operator's secrets, hidden in every answer", () => {
    const { apis } = load(withAuth(exchange()));
    const secrets = secretsOf(apis.map((config) => ({ config })));
    assert.ok(secrets.values.includes(SECRET));
    assert.equal(
      operatorRedactor(secrets).text(`the provider said: ${SECRET} is wrong`),
      'the provider said: [redacted] is wrong',
    );
  });

  test('is described in config.schema.json, key by key, and in docs/config.md', () => {
    const api = (
      configSchema().properties as Record<string, { additionalProperties: Record<string, unknown> }>
    ).apis!.additionalProperties;
    const auth = (api.properties as Record<string, { properties: Record<string, unknown> }>).auth!;
    const exchangeKeys = Object.keys(
      (auth.properties as Record<string, { properties: Record<string, unknown> }>).tokenExchange!.properties,
    );
    assert.deepEqual(
      exchangeKeys,
      authKeys().map(({ key }) => key),
    );
    const docs = readFileSync(join(import.meta.dirname, '../../docs/config.md'), 'utf8');
    for (const { key } of authKeys()) assert.match(docs, new RegExp(`\\| \`${key}\` +\\|`), key);
  });
});
