import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import type { ApiConfig } from '../../src/config/types.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { ambiguousPath } from '../../src/http/endpoint.ts';
import { Redactor } from '../../src/redaction/redactor.ts';
import { isEndpointAllowed, isTrusted } from '../../src/call/security.ts';
import { CallTarget } from '../../src/call/target.ts';
import { hostProblem } from '../../src/transports/host-check.ts';

const TOKEN = 'Bearer sk-live-7c1d9e0f-SECRET';
const API_KEY = 'key-4b2a-SECRET-value';

type Config = ApiConfig;

function config(...argv: string[]): Config {
  const loaded = loadConfig(argv, {});
  assert.equal(loaded.kind, 'serve');
  return loaded.apis[0]!;
}

/** The headers a call to `endpoint` with `own` headers sends, and the notes its result carries. */
function headersFor(cfg: Config, endpoint: URL, own: HeaderSet): { headers: HeaderSet; notes: string[] } {
  const target = new CallTarget({ config: cfg }, endpoint, own);
  return { headers: target.headers, notes: target.withheldNotes() };
}

/** The redirect rule of a call to `endpoint`. */
function redirectCheck(cfg: Config, endpoint: URL): (hop: URL) => string | undefined {
  return new CallTarget({ config: cfg }, endpoint).checkHop;
}

/** Throws (failing the test) on a header the set refuses. */
function headers(entries: Record<string, string>): HeaderSet {
  return HeaderSet.of(entries);
}

const DEFAULT = '--endpoint=https://api.example.com/graphql';
const STARTUP_HEADERS = `--headers=${JSON.stringify({ Authorization: TOKEN, 'X-Api-Key': API_KEY })}`;

describe('isEndpointAllowed without --allowedEndpoints', () => {
  const open = config(DEFAULT);

  test('the default endpoint is allowed', () => {
    assert.equal(isEndpointAllowed(open, new URL('https://api.example.com/graphql')), true);
  });

  test('an endpoint on another origin is allowed', () => {
    assert.equal(isEndpointAllowed(open, new URL('https://elsewhere.example.org/graphql')), true);
  });

  test('an http endpoint on another origin is allowed', () => {
    assert.equal(isEndpointAllowed(open, new URL('http://127.0.0.1:9999/graphql')), true);
  });
});

describe('isEndpointAllowed with --allowedEndpoints', () => {
  const exact = config(DEFAULT, '--allowedEndpoints=https://other.example.com/graphql');
  const prefix = config(DEFAULT, '--allowedEndpoints=https://other.example.com/api/');
  const bareOrigin = config(DEFAULT, '--allowedEndpoints=https://other.example.com');
  const allowed = (cfg: Config, url: string) => isEndpointAllowed(cfg, new URL(url));

  test('the default endpoint is allowed', () => {
    assert.equal(allowed(exact, 'https://api.example.com/graphql'), true);
  });

  test("any path on the default endpoint's origin is allowed", () => {
    assert.equal(allowed(exact, 'https://api.example.com/v2/other'), true);
  });

  test("the default endpoint's host on another scheme is not allowed", () => {
    assert.equal(allowed(exact, 'http://api.example.com/graphql'), false);
  });

  test("the default endpoint's host on another port is not allowed", () => {
    assert.equal(allowed(exact, 'https://api.example.com:8443/graphql'), false);
  });

  test("the default endpoint's host with its default port written out is allowed", () => {
    assert.equal(allowed(exact, 'https://api.example.com:443/graphql'), true);
  });

  test("a subdomain of the default endpoint's host is not allowed", () => {
    assert.equal(allowed(exact, 'https://evil.api.example.com/graphql'), false);
  });

  test('a listed entry without a trailing slash allows that exact endpoint', () => {
    assert.equal(allowed(exact, 'https://other.example.com/graphql'), true);
  });

  test('a listed entry is matched whatever the case of the host', () => {
    assert.equal(allowed(exact, 'https://OTHER.Example.COM/graphql'), true);
  });

  test('a listed entry without a trailing slash does not allow a path below it', () => {
    assert.equal(allowed(exact, 'https://other.example.com/graphql/admin'), false);
  });

  test('a listed entry without a trailing slash does not allow the same path with a slash', () => {
    assert.equal(allowed(exact, 'https://other.example.com/graphql/'), false);
  });

  test('a listed entry without a trailing slash does not allow a longer name', () => {
    assert.equal(allowed(exact, 'https://other.example.com/graphqlx'), false);
  });

  test('a listed entry without a trailing slash does not allow another path on its origin', () => {
    assert.equal(allowed(exact, 'https://other.example.com/'), false);
  });

  test("a listed entry's path on another origin is not allowed", () => {
    assert.equal(allowed(exact, 'https://attacker.example.net/graphql'), false);
  });

  test("a listed entry's host on another scheme is not allowed", () => {
    assert.equal(allowed(exact, 'http://other.example.com/graphql'), false);
  });

  test("a listed entry's host on another port is not allowed", () => {
    assert.equal(allowed(exact, 'https://other.example.com:444/graphql'), false);
  });

  test('the query string of the endpoint is ignored', () => {
    assert.equal(allowed(exact, 'https://other.example.com/graphql?tenant=1'), true);
  });

  test('the query string of the entry is ignored', () => {
    const cfg = config(DEFAULT, '--allowedEndpoints=https://other.example.com/graphql?tenant=1');
    assert.equal(allowed(cfg, 'https://other.example.com/graphql'), true);
    assert.equal(allowed(cfg, 'https://other.example.com/graphql?tenant=2'), true);
  });

  test('a listed entry ending with a slash allows every path below it', () => {
    assert.equal(allowed(prefix, 'https://other.example.com/api/graphql'), true);
    assert.equal(allowed(prefix, 'https://other.example.com/api/v1/graphql'), true);
  });

  test('a listed entry ending with a slash allows itself', () => {
    assert.equal(allowed(prefix, 'https://other.example.com/api/'), true);
  });

  test('a listed entry ending with a slash does not allow its path without the slash', () => {
    assert.equal(allowed(prefix, 'https://other.example.com/api'), false);
  });

  test('a listed entry ending with a slash does not allow a sibling that shares its prefix', () => {
    assert.equal(allowed(prefix, 'https://other.example.com/apix/graphql'), false);
  });

  test('a listed entry ending with a slash does not allow a path above it', () => {
    assert.equal(allowed(prefix, 'https://other.example.com/graphql'), false);
  });

  test('a listed entry ending with a slash does not allow its path on another origin', () => {
    assert.equal(allowed(prefix, 'https://other.example.com:8080/api/graphql'), false);
  });

  test('a bare origin allows every path of that origin', () => {
    assert.equal(allowed(bareOrigin, 'https://other.example.com/graphql'), true);
    assert.equal(allowed(bareOrigin, 'https://other.example.com/'), true);
    assert.equal(allowed(bareOrigin, 'https://other.example.com/deep/path'), true);
  });

  test('a bare origin does not allow another scheme on its host', () => {
    assert.equal(allowed(bareOrigin, 'http://other.example.com/graphql'), false);
  });

  test('any of several entries allows', () => {
    const cfg = config(DEFAULT, '--allowedEndpoints=https://a.example.com/graphql,https://b.example.com/');
    assert.equal(allowed(cfg, 'https://a.example.com/graphql'), true);
    assert.equal(allowed(cfg, 'https://b.example.com/anything'), true);
    assert.equal(allowed(cfg, 'https://c.example.com/graphql'), false);
  });

  test('an entry on an http loopback port allows only that port', () => {
    const cfg = config(DEFAULT, '--allowedEndpoints=http://127.0.0.1:4000/');
    assert.equal(allowed(cfg, 'http://127.0.0.1:4000/graphql'), true);
    assert.equal(allowed(cfg, 'http://127.0.0.1:4001/graphql'), false);
    assert.equal(allowed(cfg, 'http://localhost:4000/graphql'), false);
  });
});

describe('isTrusted', () => {
  test("the default endpoint's origin is trusted without --allowedEndpoints", () => {
    assert.equal(isTrusted(config(DEFAULT), new URL('https://api.example.com/other')), true);
  });

  test('another origin is not trusted without --allowedEndpoints', () => {
    assert.equal(isTrusted(config(DEFAULT), new URL('https://elsewhere.example.org/graphql')), false);
  });

  test("another port of the default endpoint's host is not trusted", () => {
    assert.equal(isTrusted(config(DEFAULT), new URL('https://api.example.com:8443/graphql')), false);
  });

  test("another scheme of the default endpoint's host is not trusted", () => {
    assert.equal(isTrusted(config(DEFAULT), new URL('http://api.example.com/graphql')), false);
  });

  test('the default endpoint of the default config is trusted', () => {
    assert.equal(isTrusted(config(), new URL('http://localhost:4000/graphql')), true);
  });

  test('a listed endpoint is trusted', () => {
    const cfg = config(DEFAULT, '--allowedEndpoints=https://other.example.com/graphql');
    assert.equal(isTrusted(cfg, new URL('https://other.example.com/graphql')), true);
  });

  test("an unlisted path on a listed endpoint's origin is not trusted", () => {
    const cfg = config(DEFAULT, '--allowedEndpoints=https://other.example.com/graphql');
    assert.equal(isTrusted(cfg, new URL('https://other.example.com/collect')), false);
  });
});

describe('paths under --allowedEndpoints', () => {
  const scoped = config(
    DEFAULT,
    '--allowedEndpoints=https://other.example.com/api/,https://other.example.com/redirect',
  );
  const allowed = (cfg: Config, url: string) => isEndpointAllowed(cfg, new URL(url));

  const encoded = [
    'https://other.example.com/api/..%2f..%2fadmin',
    'https://other.example.com/api/..%2F..%2Fadmin',
    'https://other.example.com/api/%2e%2e%2fadmin',
    'https://other.example.com/api/%2E%2E%2Fadmin',
    'https://other.example.com/api/.%2e%2fadmin',
    'https://other.example.com/api/..%5cadmin',
    'https://other.example.com/api/..%5Cadmin',
    'https://other.example.com/api/%252e%252e%252fadmin',
    'https://other.example.com/api/v1%2fgraphql',
    'https://other.example.com/api/..;/admin',
    'https://other.example.com/api/..;jsessionid=x/admin',
    'https://other.example.com/api/.;/graphql',
    'https://other.example.com/api/%2e%2e;/admin',
  ];
  for (const url of encoded) {
    test(`MUST NOT allow ${new URL(url).pathname} below a listed prefix`, () => {
      assert.equal(allowed(scoped, url), false);
      assert.equal(isTrusted(scoped, new URL(url)), false);
      assert.match(ambiguousPath(new URL(url)) ?? '', /encoded slash/);
    });
  }

  test('dot segments, encoded or not, are resolved before matching', () => {
    for (const path of ['/api/../admin', '/api/%2e%2e/admin', '/api/.%2e/admin', '/api/%2E./admin']) {
      assert.equal(new URL(`https://other.example.com${path}`).pathname, '/admin');
      assert.equal(allowed(scoped, `https://other.example.com${path}`), false);
    }
    assert.equal(allowed(scoped, 'https://other.example.com/admin/../api/graphql'), true);
  });

  test('a backslash is read as a slash before matching', () => {
    assert.equal(allowed(scoped, 'https://other.example.com/api\\..\\admin'), false);
  });

  test('a path parameter on a segment that is not a dot segment is allowed', () => {
    assert.equal(allowed(scoped, 'https://other.example.com/api/graphql;v=2'), true);
    assert.equal(allowed(scoped, 'https://other.example.com/api/..x;/graphql'), true);
  });

  test('an encoded character that is neither a slash nor a dot segment is allowed', () => {
    assert.equal(allowed(scoped, 'https://other.example.com/api/schema%2ejson'), true);
    assert.equal(allowed(scoped, 'https://other.example.com/api/caf%C3%A9'), true);
    assert.equal(ambiguousPath(new URL('https://other.example.com/api/a%20b')), undefined);
  });

  test("an encoded slash on the default endpoint's origin is refused too", () => {
    assert.equal(allowed(scoped, 'https://api.example.com/v1%2fgraphql'), false);
  });

  test('without --allowedEndpoints an encoded slash is allowed, and trusted on the default origin', () => {
    const open = config(DEFAULT);
    assert.equal(allowed(open, 'https://api.example.com/a%2fb'), true);
    assert.equal(isTrusted(open, new URL('https://api.example.com/a%2fb')), true);
    assert.equal(allowed(open, 'https://elsewhere.example.org/a%2fb'), true);
  });
});

describe('redirectCheck', () => {
  const scoped = config(
    DEFAULT,
    '--allowedEndpoints=https://other.example.com/api/,https://other.example.com/redirect',
  );
  const hop = (cfg: Config, from: string, to: string) => redirectCheck(cfg, new URL(from))(new URL(to));

  test('a hop within a listed prefix is followed', () => {
    assert.equal(
      hop(scoped, 'https://other.example.com/redirect', 'https://other.example.com/api/graphql'),
      undefined,
    );
  });

  test('MUST NOT follow a hop to an unlisted path of a listed origin', () => {
    const refused = hop(
      scoped,
      'https://other.example.com/redirect',
      'https://other.example.com/admin/secret-export',
    );
    assert.match(refused ?? '', /not an allowed endpoint; allowed: /);
  });

  test('MUST NOT follow a hop to an encoded-slash path below a listed prefix', () => {
    const refused = hop(
      scoped,
      'https://other.example.com/redirect',
      'https://other.example.com/api/..%2fadmin',
    );
    assert.match(refused ?? '', /encoded slash/);
  });

  test("a hop on the default endpoint's origin is followed", () => {
    assert.equal(
      hop(scoped, 'https://api.example.com/graphql', 'https://api.example.com/v2/graphql'),
      undefined,
    );
  });

  test('without --allowedEndpoints a hop is followed wherever the headers stay the same', () => {
    const open = config(DEFAULT);
    assert.equal(hop(open, 'https://api.example.com/graphql', 'https://api.example.com/v2'), undefined);
    assert.equal(hop(open, 'https://elsewhere.example.org/a', 'https://elsewhere.example.org/b'), undefined);
  });

  test('MUST NOT follow a hop that a direct call would send other headers than the first request got', () => {
    const open = config(DEFAULT);
    assert.match(
      hop(open, 'https://elsewhere.example.org/graphql', 'https://api.example.com/graphql') ?? '',
      /would get the startup headers/,
    );
    assert.match(
      hop(open, 'https://api.example.com/graphql', 'https://elsewhere.example.org/graphql') ?? '',
      /would not get the startup headers/,
    );
  });

  test('a refusal never names a query string', () => {
    const refused = hop(
      scoped,
      'https://other.example.com/redirect?to=x',
      'https://other.example.com/admin?token=t0k3n-value',
    );
    assert.ok(!(refused ?? '').includes('t0k3n-value'));
  });
});

describe('headersFor', () => {
  test('a trusted endpoint gets the startup headers and no note', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent, notes } = headersFor(
      cfg,
      new URL('https://api.example.com/graphql'),
      new HeaderSet(),
    );
    assert.deepEqual(sent.entries(), [
      ['Authorization', TOKEN],
      ['X-Api-Key', API_KEY],
    ]);
    assert.deepEqual(notes, []);
  });

  test('a listed endpoint gets the startup headers and no note', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS, '--allowedEndpoints=https://other.example.com/');
    const { headers: sent, notes } = headersFor(
      cfg,
      new URL('https://other.example.com/graphql'),
      new HeaderSet(),
    );
    assert.equal(sent.size, 2);
    assert.deepEqual(notes, []);
  });

  test('on a trusted endpoint a call header replaces the startup header of the same name, whatever its case', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent } = headersFor(
      cfg,
      new URL('https://api.example.com/graphql'),
      headers({ authorization: 'Bearer call-token', 'X-Extra': 'e' }),
    );
    const byName = new Map(sent.entries().map(([name, value]) => [name.toLowerCase(), value]));
    assert.equal(sent.size, 3);
    assert.equal(byName.get('authorization'), 'Bearer call-token');
    assert.equal(byName.get('x-api-key'), API_KEY);
    assert.equal(byName.get('x-extra'), 'e');
  });

  test('MUST NOT send the startup headers to an endpoint on another origin', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      new HeaderSet(),
    );
    assert.equal(sent.size, 0);
  });

  test('MUST NOT send the startup headers to another port of the default host', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent } = headersFor(
      cfg,
      new URL('https://api.example.com:8443/graphql'),
      new HeaderSet(),
    );
    assert.equal(sent.size, 0);
  });

  test('an untrusted endpoint gets the call headers only', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ 'X-Call': 'c' }),
    );
    assert.deepEqual(sent.entries(), [['X-Call', 'c']]);
  });

  test('a withheld startup header gives one note naming the header and the endpoint', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(cfg, new URL('https://attacker.example.net/graphql'), new HeaderSet());
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /Authorization/);
    assert.match(notes[0]!, /X-Api-Key/);
    assert.match(notes[0]!, /https:\/\/attacker\.example\.net\/graphql/);
  });

  test('the withheld-headers note never holds a header value', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ 'X-Call': 'call-SECRET-value' }),
    );
    assert.equal(notes.length, 1);
    assert.doesNotMatch(notes[0]!, /SECRET/);
  });

  test("the withheld-headers note does not name the endpoint's query string", () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql?token=query-SECRET'),
      new HeaderSet(),
    );
    assert.equal(notes.length, 1);
    assert.doesNotMatch(notes[0]!, /SECRET/);
  });

  test('no note when there are no startup headers', () => {
    const cfg = config(DEFAULT);
    const { notes } = headersFor(cfg, new URL('https://attacker.example.net/graphql'), new HeaderSet());
    assert.deepEqual(notes, []);
  });

  test('no note when every startup header is replaced by a call header of the same name', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { headers: sent, notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ Authorization: 'Bearer theirs', 'X-Api-Key': 'their-key' }),
    );
    assert.deepEqual(notes, []);
    assert.deepEqual(sent.entries(), [
      ['Authorization', 'Bearer theirs'],
      ['X-Api-Key', 'their-key'],
    ]);
  });

  test('a call header replaces a startup header of the same name in another case', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ AUTHORIZATION: 'Bearer theirs', 'x-api-key': 'their-key' }),
    );
    assert.deepEqual(notes, []);
  });

  test('a note names only the startup headers that were not replaced', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ authorization: 'Bearer theirs' }),
    );
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /X-Api-Key/);
    assert.doesNotMatch(notes[0]!, /Authorization/);
  });

  test('a call header of another name does not stop the note', () => {
    const cfg = config(DEFAULT, '--headers={"Authorization":"Bearer mine"}');
    const { notes } = headersFor(
      cfg,
      new URL('https://attacker.example.net/graphql'),
      headers({ 'X-Other': 'x' }),
    );
    assert.equal(notes.length, 1);
  });

  test('no note for an endpoint on the default origin', () => {
    const cfg = config(DEFAULT, STARTUP_HEADERS);
    const { notes } = headersFor(cfg, new URL('https://api.example.com/elsewhere'), new HeaderSet());
    assert.deepEqual(notes, []);
  });
});

/** Text with the credentials of a call hidden, as the tools hide what an endpoint echoes. */
const redact = (text: string, headers: readonly HeaderSet[]) => Redactor.of(headers).text(text);

describe('redacting echoed headers', () => {
  const startup = headers({ Authorization: TOKEN, 'X-Api-Key': API_KEY });

  test('a header value in a text is hidden', () => {
    const text = redact(`401: invalid credentials ${TOKEN}`, [startup]);
    assert.ok(!text.includes(TOKEN));
    assert.match(text, /\[redacted\]/);
    assert.match(text, /^401: invalid credentials /);
  });

  test('every occurrence of a header value is hidden', () => {
    const text = redact(`${API_KEY} and again ${API_KEY}`, [startup]);
    assert.ok(!text.includes(API_KEY));
    assert.equal(text, '[redacted] and again [redacted]');
  });

  test('values of every header set are hidden', () => {
    const call = headers({ 'X-Call-Token': 'call-token-9911' });
    const text = redact(`echo: ${TOKEN} / call-token-9911 / ${API_KEY}`, [startup, call]);
    assert.ok(!text.includes(TOKEN));
    assert.ok(!text.includes(API_KEY));
    assert.ok(!text.includes('call-token-9911'));
  });

  test('a value inside JSON is hidden', () => {
    const text = redact(JSON.stringify({ received: { authorization: TOKEN } }), [startup]);
    assert.ok(!text.includes(TOKEN));
  });

  test("a value that starts with another header's value is hidden whole", () => {
    // Replacing the shorter value first would leave the rest of the token in the text.
    const set = headers({ 'X-Auth-Scheme': 'Bearer', Authorization: TOKEN });
    const text = redact(`rejected: ${TOKEN}`, [set]);
    assert.ok(!text.includes('sk-live-7c1d9e0f-SECRET'), text);
  });

  test("a call header value that starts with a startup header's value is hidden whole", () => {
    const call = headers({ Authorization: `${API_KEY}-extended` });
    const text = redact(`rejected: ${API_KEY}-extended`, [startup, call]);
    assert.equal(text, 'rejected: [redacted]');
  });

  test('a text without header values is unchanged', () => {
    assert.equal(redact('Internal Server Error', [startup]), 'Internal Server Error');
  });

  test('no header sets leave the text unchanged', () => {
    assert.equal(redact(`x ${TOKEN}`, []), `x ${TOKEN}`);
  });

  test('header names are not hidden', () => {
    assert.equal(redact('missing Authorization header', [startup]), 'missing Authorization header');
  });
});

describe('Host and Origin against --allowedHosts', () => {
  const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
  const allows = (host: string | undefined, origin?: string, allowed = LOOPBACK) =>
    hostProblem(host, origin, allowed) === undefined;

  test('a host name or address with an optional port passes, in any case', () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      'LOCALHOST:3000',
      '127.0.0.1:1',
      '[::1]:3000',
      '[::1]',
    ])
      assert.ok(allows(host), host);
  });

  test('MUST refuse a Host that holds more than a host and a port', () => {
    for (const host of [
      'localhost/x',
      'localhost:3000/x',
      'localhost@evil.example',
      'evil.example@localhost',
      'localhost#x',
      'localhost?x',
      'localhost:3000:1',
      'localhost:',
      'localhost:99999',
      'localhost\\x',
      'localhost x',
      '[::1',
      '',
      undefined,
    ])
      assert.match(
        hostProblem(host, undefined, LOOPBACK) ?? '',
        /^Forbidden: Host .* is not a host name and optional port$/,
        String(host),
      );
  });

  test('MUST refuse a Host whose name is not listed', () => {
    assert.equal(
      hostProblem('evil.example:3000', undefined, LOOPBACK),
      'Forbidden: Host "evil.example:3000" is not allowed (see --allowedHosts)',
    );
    assert.ok(!allows('localhost.'));
  });

  test('an Origin of scheme, host and optional port on an allowed name passes', () => {
    for (const origin of [
      'http://localhost:3000',
      'https://127.0.0.1',
      'HTTP://LOCALHOST',
      'http://[::1]:8080',
    ])
      assert.ok(allows('localhost', origin), origin);
  });

  test('MUST refuse an Origin that holds more than a scheme, a host and a port', () => {
    for (const origin of [
      'http://localhost/',
      'http://localhost:3000/x',
      'http://user@localhost',
      'http://localhost?x',
      'http://localhost#x',
      'localhost',
      '//localhost',
      'http://localhost, http://evil.example',
      'null',
      '',
    ])
      assert.match(
        hostProblem('localhost', origin, LOOPBACK) ?? '',
        /^Forbidden: Origin .* is not a scheme, host name and optional port$/,
        origin,
      );
  });

  test('MUST refuse an Origin whose name is not listed', () => {
    assert.equal(
      hostProblem('localhost', 'http://evil.example', LOOPBACK),
      'Forbidden: Origin "http://evil.example" is not allowed (see --allowedHosts)',
    );
  });

  test('* accepts any Host and Origin', () => {
    assert.ok(allows('evil.example/x', 'null', ['*']));
  });
});
