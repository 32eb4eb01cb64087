import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HeaderSet } from '../../src/http/headers.ts';
import { Redactor, redactionNote } from '../../src/redaction/redactor.ts';

const TOKEN = 'Zq7Xw2Kp9Vt4Lm3N';
const API_KEY = 'Hb5Rt8Yc1Wq6Ej0P';

/** Throws (failing the test) on a header the set refuses. */
function headers(entries: Record<string, string>): HeaderSet {
  return HeaderSet.of(entries);
}

const startup = headers({ Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': API_KEY });
const redactor = Redactor.of([startup]);
const hide = (text: string) => redactor.text(text);

/** Fails when any 8 consecutive characters of `secret` remain in `text`, in any case. */
function assertHidden(text: string, secret: string): void {
  const lower = text.toLowerCase();
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8).toLowerCase();
    assert.ok(!lower.includes(piece), `"${piece}" of the secret is left in ${JSON.stringify(text)}`);
  }
}

describe('Redactor.text: the forms of a header value', () => {
  test('the whole value is hidden', () => {
    assert.equal(hide(`invalid credentials: Bearer ${TOKEN}`), 'invalid credentials: [redacted]');
  });

  test('the credential without its scheme is hidden', () => {
    assert.equal(hide(`invalid token ${TOKEN}.`), 'invalid token [redacted].');
  });

  test('the value lower-cased is hidden', () => {
    assert.equal(hide(`token ${TOKEN.toLowerCase()}`), 'token [redacted]');
  });

  test('the value upper-cased is hidden', () => {
    assert.equal(hide(`TOKEN ${TOKEN.toUpperCase()}`), 'TOKEN [redacted]');
  });

  test('a redirect host made of the token (lower-cased by URL parsing) is hidden', () => {
    const host = new URL(`http://${TOKEN}.evil.test/`).origin;
    assert.equal(hide(`redirects to ${host}/`), 'redirects to http://[redacted].evil.test/');
  });

  test('a line break inside the value does not hide it', () => {
    const text = hide(`<pre>Authorization: Bearer ${TOKEN.slice(0, 6)}\n${TOKEN.slice(6)}</pre>`);
    assertHidden(text, TOKEN);
    assert.match(text, /^<pre>Authorization: \[redacted\]<\/pre>$/);
  });

  test('a line break and indentation inside the value do not hide it', () => {
    assertHidden(hide(`${TOKEN.slice(0, 3)}\r\n    ${TOKEN.slice(3, 11)}\n\t${TOKEN.slice(11)}`), TOKEN);
  });

  test('a quoted-printable soft break inside the value does not hide it', () => {
    assertHidden(hide(`token=3D${TOKEN.slice(0, 9)}=\r\n${TOKEN.slice(9)}`), TOKEN);
  });

  test('a JSON-escaped line break inside the value does not hide it', () => {
    assertHidden(hide(`{"echo":"${TOKEN.slice(0, 7)}\\n${TOKEN.slice(7)}"}`), TOKEN);
  });

  test('the first half of the credential is hidden', () => {
    assert.equal(hide(`token ${TOKEN.slice(0, 8)}…`), 'token [redacted]…');
  });

  test('the second half of the credential is hidden', () => {
    assert.equal(hide(`token …${TOKEN.slice(8)}`), 'token …[redacted]');
  });

  test('fewer than 8 characters of a credential are left alone', () => {
    assert.equal(hide(`token ${TOKEN.slice(0, 7)}…`), `token ${TOKEN.slice(0, 7)}…`);
  });

  test('the percent-encoded value is hidden', () => {
    assert.equal(hide(`/to/${encodeURIComponent(`Bearer ${TOKEN}`)}`), '/to/[redacted]');
  });

  test('the value encoded as a form field (a space as "+") is hidden', () => {
    assertHidden(hide(`auth=Bearer+${TOKEN}`), TOKEN);
  });

  test('the base64 of the value is hidden', () => {
    const encoded = Buffer.from(`Bearer ${TOKEN}`).toString('base64');
    assertHidden(hide(`echo ${encoded}`), encoded);
  });

  test('the base64 of the credential, without padding, is hidden', () => {
    const encoded = Buffer.from(TOKEN).toString('base64').replace(/=+$/, '');
    assertHidden(hide(`echo ${encoded}`), encoded);
  });

  test('the URL-safe base64 of the credential is hidden', () => {
    const encoded = Buffer.from(`${TOKEN}??>>`).toString('base64url');
    assert.match(encoded, /[-_]/);
    assertHidden(hide(`echo ${encoded}`), encoded.slice(0, -4));
  });

  test('the credential base64-encoded inside a longer text, at each alignment, is hidden', () => {
    for (const prefix of ['', 'x', 'xy']) {
      const encoded = Buffer.from(`${prefix}{"authorization":"Bearer ${TOKEN}"}`).toString('base64');
      const alone = Buffer.from(TOKEN).toString('base64');
      const text = hide(encoded);
      assert.match(text, /\[redacted\]/, `prefix ${JSON.stringify(prefix)}`);
      assert.equal(Buffer.from(text.replace('[redacted]', ''), 'base64').includes(TOKEN), false);
      assertHidden(text, alone.slice(2, -2));
    }
  });

  test('the lower-case hex of the value is hidden', () => {
    const encoded = Buffer.from(`Bearer ${TOKEN}`).toString('hex');
    assertHidden(hide(`echo ${encoded}`), encoded);
  });

  test('the upper-case hex of the credential is hidden', () => {
    const encoded = Buffer.from(TOKEN).toString('hex').toUpperCase();
    assertHidden(hide(`echo ${encoded}`), encoded);
  });

  test('every occurrence is hidden', () => {
    assert.equal(hide(`${API_KEY} and again ${API_KEY}`), '[redacted] and again [redacted]');
  });

  test('a value holding another is hidden whole', () => {
    const call = headers({ 'X-Call': `${API_KEY}-extended` });
    assert.equal(Redactor.of([startup, call]).text(`rejected: ${API_KEY}-extended`), 'rejected: [redacted]');
  });
});

describe('Redactor.text: a Basic credential', () => {
  const basic = headers({ Authorization: `Basic ${Buffer.from(`alice:sk-${TOKEN}`).toString('base64')}` });
  const redactBasic = Redactor.of([basic]);

  test('the decoded "user:password" is hidden', () => {
    assertHidden(redactBasic.text(`bad credentials alice:sk-${TOKEN}`), TOKEN);
    assert.doesNotMatch(redactBasic.text(`alice:sk-${TOKEN}`), /alice:sk/);
  });

  test('the decoded password alone is hidden', () => {
    assert.equal(redactBasic.text(`wrong password sk-${TOKEN}`), 'wrong password [redacted]');
  });

  test('the encoded value is hidden', () => {
    const value = basic.values()[0]!;
    assertHidden(redactBasic.text(`got ${value}`), value.slice('Basic '.length));
  });
});

describe('Redactor.text: what is not a secret', () => {
  test('a text without header values is unchanged', () => {
    assert.equal(
      hide('Internal Server Error: Bearer token required'),
      'Internal Server Error: Bearer token required',
    );
  });

  test('header names are not hidden', () => {
    assert.equal(
      hide('missing Authorization and X-Api-Key headers'),
      'missing Authorization and X-Api-Key headers',
    );
  });

  test('values shorter than 8 characters are not treated as secrets', () => {
    const short = Redactor.of([headers({ 'X-Tenant': 'acme', 'Accept-Language': 'en-US' })]);
    assert.equal(short.empty, true);
    assert.equal(short.text('acme in en-US'), 'acme in en-US');
  });

  test('a value that is not token-like is hidden only whole, not by its parts', () => {
    const plain = Redactor.of([headers({ Accept: 'application/json' })]);
    assert.equal(plain.text('application/json'), '[redacted]');
    assert.equal(plain.text('an application that speaks json'), 'an application that speaks json');
  });

  test('no header sets leave the text unchanged', () => {
    assert.equal(Redactor.of([]).text(`x Bearer ${TOKEN}`), `x Bearer ${TOKEN}`);
  });
});

describe('Redactor.text: URL query strings', () => {
  test('a query-string value of a configured URL is hidden, raw and decoded', () => {
    const urls = [new URL(`http://h/graphql?api_key=${TOKEN}%2Fx&flag=1`)];
    const byUrl = Redactor.of([], urls);
    assert.equal(byUrl.text(`got ${TOKEN}%2Fx`), 'got [redacted]');
    assert.equal(byUrl.text(`got ${TOKEN}/x`), 'got [redacted]');
  });

  test('a value that is a URL leaves URLs in messages readable', () => {
    const endpoint = new URL('http://127.0.0.1:4102/redirect?next=http://127.0.0.1:4102/x');
    const message = 'HTTP 301 from http://127.0.0.1:4102/redirect redirects to http://127.0.0.1:4102/x';
    assert.equal(Redactor.of([], [endpoint]).text(message), message);
  });

  test('a value that is a path leaves URLs in messages readable', () => {
    const endpoint = new URL('http://127.0.0.1:4102/redirect?to=/admin/secret-export&page=2');
    const message =
      'HTTP 307 from http://127.0.0.1:4102/redirect redirects to http://127.0.0.1:4102/admin/secret-export';
    assert.equal(Redactor.of([], [endpoint]).text(message), message);
  });

  test('the credentials inside a URL value stay hidden: user-info, token-like path segments, query values', () => {
    const inner = `https://u:${TOKEN}@hooks.example.com/services/${API_KEY}/ok?sig=Tc6Bm1Wg8Zr3Fh5K#at=Qd2Ls7Vy4Np9Gx1C`;
    const byUrl = Redactor.of([], [new URL(`http://h/graphql?next=${encodeURIComponent(inner)}`)]);
    const text = byUrl.text(`password ${TOKEN}, path ${API_KEY}, sig Tc6Bm1Wg8Zr3Fh5K, at Qd2Ls7Vy4Np9Gx1C`);
    assert.equal(text, 'password [redacted], path [redacted], sig [redacted], at [redacted]');
    assert.equal(byUrl.text('https://hooks.example.com/services/'), 'https://hooks.example.com/services/');
  });

  test('a token-like value is hidden in part, whatever its name', () => {
    const byUrl = Redactor.of([], [new URL(`http://h/graphql?k=${TOKEN}`)]);
    assertHidden(byUrl.text(`half ${TOKEN.slice(0, 9)}`), TOKEN);
  });
});

describe('Redactor.json: a GraphQL response', () => {
  test('a string in errors[].message is hidden', () => {
    const { value } = redactor.json({
      errors: [{ message: `invalid credentials: Bearer ${TOKEN}` }],
      data: null,
    });
    assert.deepEqual(value, { errors: [{ message: 'invalid credentials: [redacted]' }], data: null });
  });

  test('a string in errors[].extensions is hidden', () => {
    const { value } = redactor.json({
      errors: [{ message: 'no', extensions: { received: { key: API_KEY } } }],
    });
    assert.equal(JSON.stringify(value).includes(API_KEY), false);
  });

  test('a string value deep in data is hidden', () => {
    const { value } = redactor.json({ data: { a: [{ b: { c: `x-api-key: ${API_KEY}` } }] } });
    assert.deepEqual(value, { data: { a: [{ b: { c: 'x-api-key: [redacted]' } }] } });
  });

  test('an object key is hidden', () => {
    const { value } = redactor.json({ data: { [TOKEN]: true } });
    assert.deepEqual(Object.keys((value as { data: object }).data), ['[redacted]']);
  });

  test('the count says how many values were hidden', () => {
    const { hidden } = redactor.json({ data: { a: TOKEN, b: [API_KEY, 'ok'], [TOKEN]: 1 } });
    assert.equal(hidden, 3);
  });

  test('a response without secrets is returned as the very same object', () => {
    const response = { data: { books: [{ title: 'SPQR', isbn: '9781631492228' }] } };
    const { value, hidden } = redactor.json(response);
    assert.equal(value, response);
    assert.equal(hidden, 0);
  });

  test('only the branch that held a secret is copied', () => {
    const kept = { title: 'SPQR' };
    const response = { data: { kept, echo: { auth: TOKEN } } };
    const { value } = redactor.json(response);
    assert.notEqual(value, response);
    assert.equal((value as typeof response).data.kept, kept);
  });

  test('numbers, booleans and null are kept as they are', () => {
    const response = { data: { n: 12345678, t: true, z: null, s: TOKEN } };
    assert.deepEqual(redactor.json(response).value, {
      data: { n: 12345678, t: true, z: null, s: '[redacted]' },
    });
  });

  test('a copied object keeps its keys in their order, the ones before the change included', () => {
    const { value } = redactor.json({ a: 1, b: 'two', [`k-${TOKEN}`]: 3, d: [4] });
    assert.deepEqual(Object.entries(value), [
      ['a', 1],
      ['b', 'two'],
      ['k-[redacted]', 3],
      ['d', [4]],
    ]);
  });

  test('a value nested far deeper than the call stack allows is walked, and its secret hidden', () => {
    let deep: unknown = `Bearer ${TOKEN}`;
    for (let i = 0; i < 200_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    const { value, hidden } = redactor.json(deep);
    assert.equal(hidden, 1);
    let inner: unknown = value;
    while (typeof inner === 'object' && inner !== null) {
      inner = Array.isArray(inner) ? inner[0] : (inner as { k: unknown }).k;
    }
    assert.equal(inner, '[redacted]');
  });

  test('a "__proto__" key stays an ordinary key of the copy', () => {
    const response = JSON.parse(`{"data":{"__proto__":{"polluted":"${TOKEN}"}}}`) as Record<string, unknown>;
    const { value } = redactor.json(response);
    const data = (value as { data: Record<string, unknown> }).data;
    assert.deepEqual(Object.keys(data), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(JSON.stringify(value).includes(TOKEN), false);
  });
});

describe('redactionNote', () => {
  test('the note counts the values hidden and names what was answered, never a value', () => {
    assert.equal(
      redactionNote(2, 'schema'),
      'Note: 2 values in this schema matched credentials sent with this request (a header value or a URL ' +
        'query-string value, as sent or encoded) and were replaced by [redacted].',
    );
    assert.match(redactionNote(1), /^Note: 1 value in this response .* was replaced by \[redacted\]\.$/);
  });
});
