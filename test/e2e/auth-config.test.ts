// A config file's `auth` as the built binary reads it: what does not check out stops the start with one line on
// stderr, exit code 2, naming the key and what it needs, and never the client secret.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../fixtures/mcp.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-auth-config-'));
const SECRET = 'exchange-S3cret-4711';

function configFile(name: string, auth: unknown, api: Record<string, unknown> = {}): string {
  const path = join(dir, name);
  const apis = { crm: { endpoint: 'https://crm.example.com/graphql', auth, ...api } };
  writeFileSync(path, JSON.stringify({ apis }, null, 2));
  return path;
}

const tokenExchange = (settings: Record<string, unknown> = {}) => ({
  tokenExchange: {
    tokenEndpoint: 'https://sso.example.com/token',
    clientId: 'graphql-mcp',
    clientSecret: '${env:CRM_SECRET}',
    audience: 'crm',
    ...settings,
  },
});

/** Runs the binary on a config file; checks the one-line, exit-2 refusal that holds no secret. */
function refusal(path: string): string {
  const { status, stdout, stderr } = runCli([`--config=${path}`], { CRM_SECRET: SECRET });
  assert.equal(status, 2, stderr);
  assert.equal(stdout, '');
  assert.equal(stderr.trim().split('\n').length, 1, stderr);
  assert.ok(!stderr.includes(SECRET), stderr);
  return stderr;
}

describe('apis.<name>.auth at start-up (exit 2, one line, no secret)', () => {
  test('MUST NOT start a token exchange on stdio, where nobody signs in, and says which mode it needs', () => {
    assert.match(
      refusal(configFile('stdio.json', tokenExchange())),
      /stdio\.json:\d+: apis\.crm\.auth\.tokenExchange needs remote mode with OAuth \(--transport=http with --oauthIssuer and --oauthAudience\)/,
    );
  });

  test('MUST NOT start with a client secret written into the file', () => {
    assert.match(
      refusal(configFile('literal.json', tokenExchange({ clientSecret: SECRET }))),
      /literal\.json:\d+: apis\.crm\.auth\.tokenExchange\.clientSecret must be written as "\$\{env:NAME\}"/,
    );
  });

  test('MUST NOT start with a configured header of the name auth sends its token in', () => {
    const auth = { clientCredentials: tokenExchange().tokenExchange };
    assert.match(
      refusal(configFile('header.json', auth, { headers: { Authorization: 'Bearer ${env:CRM_SECRET}' } })),
      /header\.json:\d+: apis\.crm\.headers sets Authorization, the header apis\.crm\.auth sends its token in/,
    );
  });
});
