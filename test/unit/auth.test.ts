// Who makes a call (src/auth/principal.ts) and the shared token (src/auth/shared-token.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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
