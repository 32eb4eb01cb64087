import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import { ConfigError } from '../../src/config/parsers.ts';
import type { ApiConfig, ServerConfig } from '../../src/config/types.ts';

// A value that must never appear in any message: it stands for a real token.
const SECRET = 'Bearer sk-SECRET-8f3a9c1e-do-not-print';

/** The API of a command line that is expected to start the server. */
function serve(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ApiConfig {
  const loaded = loadConfig(argv, env);
  assert.equal(loaded.kind, 'serve');
  return loaded.apis[0]!;
}

/** The server's settings of a command line that is expected to start the server. */
function settings(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ServerConfig {
  const loaded = loadConfig(argv, env);
  assert.equal(loaded.kind, 'serve');
  return loaded.server;
}

/** The ConfigError that a command line gives, after the checks every such error must pass. */
function configError(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigError {
  let caught: unknown;
  try {
    loadConfig(argv, env);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.doesNotMatch(caught.message, /[\r\n]/, 'a startup error is a single line');
  assert.ok(!caught.message.includes(SECRET), 'the message quotes a header value');
  assert.ok(!caught.message.includes('SECRET'), 'the message quotes part of a header value');
  return caught;
}

/** Asserts that no 8 consecutive characters of `secret` appear in `text`. */
function assertNoPartOf(secret: string, text: string): void {
  for (let start = 0; start + 8 <= secret.length; start++) {
    const part = secret.slice(start, start + 8);
    assert.ok(!text.includes(part), `the message holds ${JSON.stringify(part)}: ${text}`);
  }
}

function headerEntries(config: ApiConfig): Array<[string, string]> {
  return config.headers.entries();
}

describe('parseCommand defaults', () => {
  test('no arguments and no environment give every default', () => {
    const config = serve([]);
    assert.equal(config.endpoint.href, 'http://localhost:4000/graphql');
    assert.equal(config.headers.size, 0);
    assert.equal(config.timeout, 30_000);
    assert.equal(config.maxComplexity, 100);
    assert.equal(config.allowedEndpoints, undefined);
    assert.equal(config.readOnly, false);
    assert.equal(config.maxResponseBytes, 1_048_576);
  });

  test('the config is frozen', () => {
    assert.ok(Object.isFrozen(serve([])));
  });

  test('unrelated environment variables are ignored', () => {
    const config = serve([], { PATH: '/usr/bin', HOME: '/home/user', GRAPHQL_OTHER: 'x' });
    assert.equal(config.timeout, 30_000);
  });
});

describe('parseCommand option forms', () => {
  test('--endpoint=value sets the endpoint', () => {
    assert.equal(
      serve(['--endpoint=https://api.example.com/graphql']).endpoint.href,
      'https://api.example.com/graphql',
    );
  });

  test('--endpoint value sets the endpoint', () => {
    assert.equal(
      serve(['--endpoint', 'https://api.example.com/graphql']).endpoint.href,
      'https://api.example.com/graphql',
    );
  });

  test('-e value sets the endpoint', () => {
    assert.equal(
      serve(['-e', 'https://api.example.com/graphql']).endpoint.href,
      'https://api.example.com/graphql',
    );
  });

  test('--headers=value sets the headers', () => {
    assert.deepEqual(headerEntries(serve(['--headers={"Authorization":"Bearer abc"}'])), [
      ['Authorization', 'Bearer abc'],
    ]);
  });

  test('--headers value sets the headers', () => {
    assert.deepEqual(headerEntries(serve(['--headers', '{"X-Api-Key":"k1"}'])), [['X-Api-Key', 'k1']]);
  });

  test('-H value sets the headers', () => {
    assert.deepEqual(headerEntries(serve(['-H', '{"X-Api-Key":"k1"}'])), [['X-Api-Key', 'k1']]);
  });

  test('--timeout=value sets the timeout', () => {
    assert.equal(serve(['--timeout=5000']).timeout, 5000);
  });

  test('--timeout value sets the timeout', () => {
    assert.equal(serve(['--timeout', '5000']).timeout, 5000);
  });

  test('-t value sets the timeout', () => {
    assert.equal(serve(['-t', '5000']).timeout, 5000);
  });

  test('--maxComplexity=value sets the complexity limit', () => {
    assert.equal(serve(['--maxComplexity=250']).maxComplexity, 250);
  });

  test('--maxComplexity value sets the complexity limit', () => {
    assert.equal(serve(['--maxComplexity', '250']).maxComplexity, 250);
  });

  test('-m value sets the complexity limit', () => {
    assert.equal(serve(['-m', '250']).maxComplexity, 250);
  });

  test('--allowedEndpoints=value sets the allowed endpoints', () => {
    const config = serve(['--allowedEndpoints=https://a.example.com/graphql,https://b.example.com/']);
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://a.example.com/graphql', 'https://b.example.com/'],
    );
  });

  test('--allowedEndpoints value sets the allowed endpoints', () => {
    const config = serve(['--allowedEndpoints', 'https://a.example.com/graphql']);
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://a.example.com/graphql'],
    );
  });

  test('--allowedEndpoints trims spaces around entries and skips empty ones', () => {
    const config = serve(['--allowedEndpoints= https://a.example.com/graphql , ,https://b.example.com/x ']);
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://a.example.com/graphql', 'https://b.example.com/x'],
    );
  });

  test('--maxResponseBytes=value sets the response cap', () => {
    assert.equal(serve(['--maxResponseBytes=2048']).maxResponseBytes, 2048);
  });

  test('--maxResponseBytes value sets the response cap', () => {
    assert.equal(serve(['--maxResponseBytes', '2048']).maxResponseBytes, 2048);
  });

  test('all options together are read', () => {
    const config = serve([
      '-e',
      'https://api.example.com/graphql',
      '-H',
      '{"Authorization":"Bearer abc"}',
      '-t',
      '1000',
      '-m',
      '7',
      '--allowedEndpoints=https://b.example.com/',
      '--readOnly',
      '--maxResponseBytes=10',
    ]);
    assert.equal(config.endpoint.href, 'https://api.example.com/graphql');
    assert.deepEqual(headerEntries(config), [['Authorization', 'Bearer abc']]);
    assert.equal(config.timeout, 1000);
    assert.equal(config.maxComplexity, 7);
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://b.example.com/'],
    );
    assert.equal(config.readOnly, true);
    assert.equal(config.maxResponseBytes, 10);
  });

  test('a value holding "=" is kept whole in the --name=value form', () => {
    assert.equal(
      serve(['--endpoint=https://api.example.com/graphql?a=b=c']).endpoint.href,
      'https://api.example.com/graphql?a=b=c',
    );
  });
});

describe('parseCommand boolean --readOnly', () => {
  test('--readOnly alone turns read-only on', () => {
    assert.equal(serve(['--readOnly']).readOnly, true);
  });

  for (const value of ['true', 'TRUE', 'True', '1']) {
    test(`--readOnly=${value} turns read-only on`, () => {
      assert.equal(serve([`--readOnly=${value}`]).readOnly, true);
    });
  }

  for (const value of ['false', 'FALSE', 'False', '0']) {
    test(`--readOnly=${value} leaves read-only off`, () => {
      assert.equal(serve([`--readOnly=${value}`]).readOnly, false);
    });
  }

  for (const value of ['true', 'TrUe', '1']) {
    test(`GRAPHQL_READ_ONLY=${value} turns read-only on`, () => {
      assert.equal(serve([], { GRAPHQL_READ_ONLY: value }).readOnly, true);
    });
  }

  for (const value of ['false', 'FALSE', '0']) {
    test(`GRAPHQL_READ_ONLY=${value} leaves read-only off`, () => {
      assert.equal(serve([], { GRAPHQL_READ_ONLY: value }).readOnly, false);
    });
  }

  test('--readOnly=false wins over GRAPHQL_READ_ONLY=true', () => {
    assert.equal(serve(['--readOnly=false'], { GRAPHQL_READ_ONLY: 'true' }).readOnly, false);
  });

  test('--readOnly wins over GRAPHQL_READ_ONLY=0', () => {
    assert.equal(serve(['--readOnly'], { GRAPHQL_READ_ONLY: '0' }).readOnly, true);
  });

  test('--readOnly does not take the next argument as its value', () => {
    const config = serve(['--readOnly', '--timeout=5']);
    assert.equal(config.readOnly, true);
    assert.equal(config.timeout, 5);
  });

  test('--readOnly followed by a bare false is an error, not silently ignored', () => {
    const error = configError(['--readOnly', 'false']);
    assert.match(error.message, /unexpected argument at position 2/);
    assert.match(error.message, /--readOnly=false/);
  });

  test('--readOnly=yes is an error naming the option and the accepted values', () => {
    const error = configError(['--readOnly=yes']);
    assert.match(error.message, /--readOnly/);
    assert.match(error.message, /true, false, 1 or 0/);
  });

  test('GRAPHQL_READ_ONLY=yes is an error naming the variable and the accepted values', () => {
    const error = configError([], { GRAPHQL_READ_ONLY: 'yes' });
    assert.match(error.message, /GRAPHQL_READ_ONLY/);
    assert.match(error.message, /true, false, 1 or 0/);
  });

  test('--readOnly= with an empty value is an error', () => {
    const error = configError(['--readOnly=']);
    assert.match(error.message, /--readOnly/);
  });
});

describe('parseCommand environment fallbacks', () => {
  test('GRAPHQL_ENDPOINT sets the endpoint', () => {
    assert.equal(
      serve([], { GRAPHQL_ENDPOINT: 'https://api.example.com/graphql' }).endpoint.href,
      'https://api.example.com/graphql',
    );
  });

  test('GRAPHQL_HEADERS sets the headers', () => {
    assert.deepEqual(headerEntries(serve([], { GRAPHQL_HEADERS: '{"Authorization":"Bearer abc"}' })), [
      ['Authorization', 'Bearer abc'],
    ]);
  });

  test('GRAPHQL_TIMEOUT sets the timeout', () => {
    assert.equal(serve([], { GRAPHQL_TIMEOUT: '1234' }).timeout, 1234);
  });

  test('GRAPHQL_MAX_COMPLEXITY sets the complexity limit', () => {
    assert.equal(serve([], { GRAPHQL_MAX_COMPLEXITY: '42' }).maxComplexity, 42);
  });

  test('GRAPHQL_ALLOWED_ENDPOINTS sets the allowed endpoints', () => {
    const config = serve([], { GRAPHQL_ALLOWED_ENDPOINTS: 'https://a.example.com/graphql' });
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://a.example.com/graphql'],
    );
  });

  test('GRAPHQL_MAX_RESPONSE_BYTES sets the response cap', () => {
    assert.equal(serve([], { GRAPHQL_MAX_RESPONSE_BYTES: '4096' }).maxResponseBytes, 4096);
  });

  test('an argument wins over its environment variable', () => {
    const config = serve(['--timeout=1000', '--endpoint=https://arg.example.com/graphql'], {
      GRAPHQL_TIMEOUT: '2000',
      GRAPHQL_ENDPOINT: 'https://env.example.com/graphql',
    });
    assert.equal(config.timeout, 1000);
    assert.equal(config.endpoint.href, 'https://arg.example.com/graphql');
  });

  test('--headers replaces GRAPHQL_HEADERS as a whole, without merging', () => {
    const config = serve(['--headers={"Authorization":"Bearer from-arg"}'], {
      GRAPHQL_HEADERS: '{"Authorization":"Bearer from-env","X-Env-Only":"e"}',
    });
    assert.deepEqual(headerEntries(config), [['Authorization', 'Bearer from-arg']]);
  });

  test('--allowedEndpoints replaces GRAPHQL_ALLOWED_ENDPOINTS as a whole', () => {
    const config = serve(['--allowedEndpoints=https://arg.example.com/'], {
      GRAPHQL_ALLOWED_ENDPOINTS: 'https://env.example.com/,https://other.example.com/',
    });
    assert.deepEqual(
      config.allowedEndpoints?.map((url) => url.href),
      ['https://arg.example.com/'],
    );
  });

  test('an argument that is valid wins over an environment variable that is not', () => {
    assert.equal(serve(['--timeout=1000'], { GRAPHQL_TIMEOUT: 'soon' }).timeout, 1000);
  });

  test('empty environment variables count as unset', () => {
    const config = serve([], {
      GRAPHQL_ENDPOINT: '',
      GRAPHQL_HEADERS: '',
      GRAPHQL_TIMEOUT: '',
      GRAPHQL_MAX_COMPLEXITY: '',
      GRAPHQL_ALLOWED_ENDPOINTS: '',
      GRAPHQL_READ_ONLY: '',
      GRAPHQL_MAX_RESPONSE_BYTES: '',
    });
    assert.equal(config.endpoint.href, 'http://localhost:4000/graphql');
    assert.equal(config.headers.size, 0);
    assert.equal(config.timeout, 30_000);
    assert.equal(config.maxComplexity, 100);
    assert.equal(config.allowedEndpoints, undefined);
    assert.equal(config.readOnly, false);
    assert.equal(config.maxResponseBytes, 1_048_576);
  });
});

describe('parseCommand numbers', () => {
  test('--timeout accepts 1, the smallest deadline', () => {
    assert.equal(serve(['--timeout=1']).timeout, 1);
  });

  test('--timeout accepts 600000, the largest deadline', () => {
    assert.equal(serve(['--timeout=600000']).timeout, 600_000);
  });

  test('--maxComplexity accepts 0, which turns the check off', () => {
    assert.equal(serve(['--maxComplexity=0']).maxComplexity, 0);
  });

  test('--maxResponseBytes accepts 1', () => {
    assert.equal(serve(['--maxResponseBytes=1']).maxResponseBytes, 1);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['--timeout=0', '--timeout', /1 to 600000/],
    ['--timeout=600001', '--timeout', /1 to 600000/],
    ['--timeout=-5', '--timeout', /1 to 600000/],
    ['--timeout=abc', '--timeout', /whole number/],
    ['--timeout=1.5', '--timeout', /whole number/],
    ['--timeout=30s', '--timeout', /whole number/],
    ['--timeout=', '--timeout', /whole number/],
    ['--maxComplexity=-1', '--maxComplexity', /0 or more/],
    ['--maxComplexity=ten', '--maxComplexity', /whole number/],
    ['--maxComplexity=99999999999999999999', '--maxComplexity', /whole number/],
    ['--maxResponseBytes=0', '--maxResponseBytes', /1 or more/],
    ['--maxResponseBytes=1MB', '--maxResponseBytes', /whole number/],
  ];
  for (const [arg, option, expected] of bad) {
    test(`${arg} is an error naming ${option} and what was expected`, () => {
      const error = configError([arg]);
      assert.ok(error.message.includes(option), error.message);
      assert.match(error.message, expected);
    });
  }

  test('-t 0 is an error naming -t and the range', () => {
    const error = configError(['-t', '0']);
    assert.match(error.message, /-t\b/);
    assert.match(error.message, /1 to 600000/);
  });

  test('-m -1 is an error naming -m', () => {
    const error = configError(['-m', '-1']);
    assert.match(error.message, /-m\b/);
    assert.match(error.message, /0 or more/);
  });

  const badEnv: Array<[string, string, RegExp]> = [
    ['GRAPHQL_TIMEOUT', '0', /1 to 600000/],
    ['GRAPHQL_TIMEOUT', 'soon', /whole number/],
    ['GRAPHQL_MAX_COMPLEXITY', '-3', /0 or more/],
    ['GRAPHQL_MAX_RESPONSE_BYTES', '0', /1 or more/],
  ];
  for (const [name, value, expected] of badEnv) {
    test(`${name}=${value} is an error naming ${name} and what was expected`, () => {
      const error = configError([], { [name]: value });
      assert.ok(error.message.includes(name), error.message);
      assert.match(error.message, expected);
    });
  }
});

describe('parseCommand URLs', () => {
  test('an endpoint that is not a URL is an error naming --endpoint and what was expected', () => {
    const error = configError(['--endpoint=not a url']);
    assert.match(error.message, /--endpoint/);
    assert.match(error.message, /http\(s\) URL/);
  });

  test('an endpoint with another scheme is an error naming the scheme', () => {
    const error = configError(['--endpoint=ftp://files.example.com/graphql']);
    assert.match(error.message, /--endpoint/);
    assert.match(error.message, /http\(s\)/);
    assert.match(error.message, /ftp/);
  });

  test('an endpoint with user-info is an error that does not quote the password', () => {
    const error = configError(['--endpoint=https://user:hunter2pass@api.example.com/graphql']);
    assert.match(error.message, /--endpoint/);
    assert.match(error.message, /credentials/);
    assert.ok(!error.message.includes('hunter2pass'));
  });

  test('GRAPHQL_ENDPOINT with a bad URL is an error naming the variable', () => {
    const error = configError([], { GRAPHQL_ENDPOINT: 'localhost:4000' });
    assert.match(error.message, /GRAPHQL_ENDPOINT/);
    assert.match(error.message, /http\(s\)/);
  });

  test('an allowed endpoint that is not a URL is an error naming --allowedEndpoints', () => {
    const error = configError(['--allowedEndpoints=https://ok.example.com/,nope']);
    assert.match(error.message, /--allowedEndpoints/);
    assert.match(error.message, /http\(s\) URL/);
  });

  test('an allowed endpoint with another scheme is an error naming --allowedEndpoints', () => {
    const error = configError(['--allowedEndpoints=ws://ok.example.com/graphql']);
    assert.match(error.message, /--allowedEndpoints/);
    assert.match(error.message, /http\(s\)/);
  });

  test('--allowedEndpoints holding only commas is an error', () => {
    const error = configError(['--allowedEndpoints=,,']);
    assert.match(error.message, /--allowedEndpoints/);
    assert.match(error.message, /comma-separated/);
  });

  for (const entry of [
    'https://api.example.com/api/..%2fadmin/',
    'https://api.example.com/api%2F',
    'https://api.example.com/api/%2e%2e%2fadmin',
    'https://api.example.com/api/..%5Cadmin/',
  ]) {
    test(`an --allowedEndpoints entry ${new URL(entry).pathname} with an encoded slash is an error naming the option`, () => {
      const error = configError([`--allowedEndpoints=https://ok.example.com/,${entry}`]);
      assert.match(
        error.message,
        /^--allowedEndpoints: the entry https:\/\/api\.example\.com\/\S+ cannot be used/,
      );
      assert.match(error.message, /encoded slash, backslash or dot segment/);
    });
  }

  test('an --allowedEndpoints entry whose dot segments resolve is accepted as resolved', () => {
    const config = serve(['--allowedEndpoints=https://api.example.com/api/v1/%2e%2e/v2/']);
    assert.deepEqual(config.allowedEndpoints?.map(String), ['https://api.example.com/api/v2/']);
  });

  test('GRAPHQL_ALLOWED_ENDPOINTS with a bad entry is an error naming the variable', () => {
    const error = configError([], { GRAPHQL_ALLOWED_ENDPOINTS: 'mailto:someone@example.com' });
    assert.match(error.message, /GRAPHQL_ALLOWED_ENDPOINTS/);
  });
});

describe('parseCommand headers', () => {
  test('numbers and booleans become strings', () => {
    const config = serve(['--headers={"X-Retry":3,"X-Ratio":0.5,"X-Flag":true,"X-Off":false}']);
    assert.deepEqual(headerEntries(config), [
      ['X-Retry', '3'],
      ['X-Ratio', '0.5'],
      ['X-Flag', 'true'],
      ['X-Off', 'false'],
    ]);
  });

  test('an empty object gives no headers', () => {
    assert.equal(serve(['--headers={}']).headers.size, 0);
  });

  test('header names keep their case', () => {
    assert.deepEqual(headerEntries(serve(['--headers={"x-API-key":"k"}'])), [['x-API-key', 'k']]);
  });

  test('malformed JSON is an error naming --headers that does not quote the value', () => {
    const error = configError([`--headers={"Authorization":"${SECRET}"`]);
    assert.match(error.message, /--headers/);
    assert.match(error.message, /JSON object/);
  });

  test('JSON with single quotes is an error that does not quote the value', () => {
    const error = configError([`--headers={'Authorization':'${SECRET}'}`]);
    assert.match(error.message, /--headers/);
    assert.match(error.message, /JSON/);
  });

  test('a bare token instead of JSON is an error that does not quote it', () => {
    const error = configError([`--headers=${SECRET}`]);
    assert.match(error.message, /--headers/);
    assert.match(error.message, /JSON object/);
  });

  test('GRAPHQL_HEADERS holding malformed JSON is an error naming the variable that does not quote it', () => {
    const error = configError([], { GRAPHQL_HEADERS: `{"Authorization": ${SECRET}}` });
    assert.match(error.message, /GRAPHQL_HEADERS/);
    assert.match(error.message, /JSON object/);
  });

  const notObjects: Array<[string, string]> = [
    [`["${SECRET}"]`, 'an array'],
    [`"${SECRET}"`, 'a string'],
    ['42', 'a number'],
    ['true', 'a boolean'],
    ['null', 'null'],
  ];
  for (const [json, what] of notObjects) {
    test(`JSON that is ${what} rather than an object is an error naming --headers`, () => {
      const error = configError([`--headers=${json}`]);
      assert.match(error.message, /--headers/);
      assert.match(error.message, /JSON object/);
    });
  }

  const badValues: Array<[string, string]> = [
    [`{"Authorization":{"token":"${SECRET}"}}`, 'an object'],
    [`{"Authorization":["${SECRET}"]}`, 'an array'],
    ['{"Authorization":null}', 'null'],
  ];
  for (const [json, what] of badValues) {
    test(`a header value that is ${what} is an error naming the header and what was expected`, () => {
      const error = configError([`--headers=${json}`]);
      assert.match(error.message, /--headers/);
      assert.match(error.message, /Authorization/);
      assert.match(error.message, /string, number or boolean/);
    });
  }

  test('GRAPHQL_HEADERS with a header value that is an object is an error naming the variable', () => {
    const error = configError([], { GRAPHQL_HEADERS: `{"Authorization":{"t":"${SECRET}"}}` });
    assert.match(error.message, /GRAPHQL_HEADERS/);
    assert.match(error.message, /string, number or boolean/);
  });

  test('MUST NOT quote a header name that is really a value: the error gives its position in --headers', () => {
    const error = configError([`--headers=${JSON.stringify({ [SECRET]: 'x' })}`]);
    assert.match(error.message, /^--headers: the 1st header name is not a valid HTTP header name/);
    assertNoPartOf(SECRET, error.message);
  });

  test('MUST NOT quote a header name that is really a value in GRAPHQL_HEADERS', () => {
    const error = configError([], { GRAPHQL_HEADERS: JSON.stringify({ Accept: 'x', [SECRET]: 'x' }) });
    assert.match(error.message, /^GRAPHQL_HEADERS: the 2nd header name is not a valid HTTP header name/);
    assertNoPartOf(SECRET, error.message);
  });

  const badNames = ['Bad Name', 'X:Colon', '', 'Ünïcode', 'X\r\nInjected'];
  for (const name of badNames) {
    test(`a header name ${JSON.stringify(name)} that is not an HTTP token is an error`, () => {
      const error = configError([`--headers=${JSON.stringify({ [name]: SECRET })}`]);
      assert.match(error.message, /--headers/);
      assert.match(error.message, /the 1st header name/);
      if (name !== '') assert.ok(!error.message.includes(name), error.message);
    });
  }

  for (const [label, value] of [
    ['a CR LF', `${SECRET}\r\nX-Injected: 1`],
    ['an LF', `${SECRET}\nX-Injected: 1`],
    ['a CR', `${SECRET}\rX-Injected: 1`],
  ]) {
    test(`a header value holding ${label} is an error naming the header but not its value`, () => {
      const error = configError([`--headers=${JSON.stringify({ 'X-Token': value })}`]);
      assert.match(error.message, /--headers/);
      assert.match(error.message, /X-Token/);
      assert.match(error.message, /line break/);
      assert.ok(!error.message.includes('X-Injected'));
    });
  }
});

describe('parseCommand --forwardHeaders', () => {
  test('MUST NOT quote an entry that is not a header name: the error gives its position', () => {
    const error = configError(['--transport=http', `--forwardHeaders=X-Api-Key,${SECRET}`]);
    assert.match(
      error.message,
      /^--forwardHeaders: the 2nd entry: its incoming name is not a valid HTTP header name.*expected Name or Incoming:Outgoing$/,
    );
    assertNoPartOf(SECRET, error.message);
  });

  test('MUST NOT quote an entry with more than one ":": the error gives its position', () => {
    const error = configError(['--transport=http', `--forwardHeaders=X-Key:X-Other:${SECRET.slice(7)}`]);
    assert.match(error.message, /^--forwardHeaders: the 1st entry: it has more than one ":"/);
    assertNoPartOf(SECRET, error.message);
  });
});

describe('parseCommand --oauth* options', () => {
  const ISSUER = '--oauthIssuer=https://auth.example.com';
  const AUDIENCE = '--oauthAudience=https://mcp.example.com/mcp';

  test('--oauthScopes without --oauthAudience names the one missing', () => {
    const error = configError(['--transport=http', ISSUER, '--oauthScopes=mcp:use']);
    assert.equal(
      error.message,
      '--oauthScopes needs --oauthIssuer and --oauthAudience; --oauthAudience is missing',
    );
  });

  test('--oauthScopes alone names both as missing', () => {
    const error = configError(['--transport=http', '--oauthScopes=mcp:use']);
    assert.equal(error.message, '--oauthScopes needs --oauthIssuer and --oauthAudience; both are missing');
  });

  test('--oauthIssuer without --oauthAudience asks for it', () => {
    const error = configError(['--transport=http', ISSUER]);
    assert.equal(error.message, '--oauthIssuer needs --oauthAudience, which is missing');
  });

  test('an audience from the environment without an issuer asks for --oauthIssuer', () => {
    const error = configError(['--transport=http'], {
      GRAPHQL_MCP_OAUTH_AUDIENCE: 'https://mcp.example.com/mcp',
    });
    assert.equal(error.message, 'GRAPHQL_MCP_OAUTH_AUDIENCE needs --oauthIssuer, which is missing');
  });

  test('issuer and audience together are enough', () => {
    const config = settings(['--transport=http', ISSUER, AUDIENCE]);
    assert.equal(config.http.oauth?.audience, 'https://mcp.example.com/mcp');
  });
});

describe('parseCommand --endpoint with --allowedEndpoints', () => {
  test('refuses a default endpoint whose path a server may read as another (every call would be refused)', () => {
    const error = configError([
      '--endpoint=https://api.example.com/v1%2Fgraphql',
      '--allowedEndpoints=https://other.example.com/graphql',
    ]);
    assert.match(
      error.message,
      /^--endpoint: https:\/\/api\.example\.com\/v1%2Fgraphql cannot be used with --allowedEndpoints: its path holds an encoded slash/,
    );
  });

  test('takes the same endpoint without an allow-list (nothing is matched against its path)', () => {
    assert.equal(
      serve(['--endpoint=https://api.example.com/v1%2Fgraphql']).endpoint.pathname,
      '/v1%2Fgraphql',
    );
  });
});

describe('parseCommand --forwardHeaders, a header pasted with its value', () => {
  for (const entry of ['X-Api-Key: sk-live-8f3a9c1e0b', 'X-Api-Key:\tsk-live-8f3a9c1e0b']) {
    test(`MUST refuse ${JSON.stringify(entry.replace(/sk-.*/, 'sk-…'))} without taking the value for a name or quoting it`, () => {
      const error = configError(['--transport=http', `--forwardHeaders=X-User,${entry}`]);
      assert.match(error.message, /^--forwardHeaders: the 2nd entry: it reads like "Name: value"/);
      assertNoPartOf('sk-live-8f3a9c1e0b', error.message);
    });
  }

  test('still takes a rename written without spaces', () => {
    const command = loadConfig(['--transport=http', '--forwardHeaders=X-User-Token:Authorization'], {});
    assert.equal(command.kind, 'serve');
    if (command.kind === 'serve') {
      assert.deepEqual(command.apis[0]!.forwardHeaders, [{ from: 'X-User-Token', to: 'Authorization' }]);
    }
  });
});

describe('parseCommand help, version and bad arguments', () => {
  test('--help asks for the help', () => {
    assert.deepEqual(loadConfig(['--help'], {}), { kind: 'help' });
  });

  test('-h asks for the help', () => {
    assert.deepEqual(loadConfig(['-h'], {}), { kind: 'help' });
  });

  test('--version asks for the version', () => {
    assert.deepEqual(loadConfig(['--version'], {}), { kind: 'version' });
  });

  test('-v asks for the version', () => {
    assert.deepEqual(loadConfig(['-v'], {}), { kind: 'version' });
  });

  test('--help among other options still asks for the help', () => {
    assert.deepEqual(loadConfig(['--timeout=1000', '--help'], {}), { kind: 'help' });
  });

  test('an unknown option is an error naming it', () => {
    const error = configError(['--bogus=1']);
    assert.match(error.message, /unknown option --bogus/);
    assert.match(error.message, /--help/);
  });

  test('an unknown short option is an error naming it', () => {
    const error = configError(['-x', '1']);
    assert.match(error.message, /unknown option -x/);
  });

  const nearMisses: Array<[string, string]> = [
    ['--max-complexity=5', '--maxComplexity'],
    ['--readonly', '--readOnly'],
    ['--read_only', '--readOnly'],
    ['--Endpoint=https://api.example.com/graphql', '--endpoint'],
    ['--allowed-endpoints=https://a.example.com/', '--allowedEndpoints'],
    ['--max-response-bytes=10', '--maxResponseBytes'],
    ['--TIMEOUT=10', '--timeout'],
  ];
  for (const [arg, suggestion] of nearMisses) {
    test(`${arg.split('=')[0]} is an error suggesting ${suggestion}`, () => {
      const error = configError([arg]);
      assert.match(error.message, /unknown option/);
      assert.ok(error.message.includes(`did you mean ${suggestion}?`), error.message);
    });
  }

  test('a near miss of --headers suggests --headers without quoting the value', () => {
    const error = configError([`--Headers={"Authorization":"${SECRET}"}`]);
    assert.match(error.message, /did you mean --headers\?/);
  });

  test('a bare word is an error naming its position without quoting it', () => {
    const error = configError(['https://api.example.com/graphql']);
    assert.match(error.message, /unexpected argument at position 1: it does not start with -/);
    assert.ok(!error.message.includes('api.example.com'), error.message);
  });

  test('MUST NOT quote a --headers value split over two arguments: the error names the position of the stray part', () => {
    const error = configError(['--headers', '{"Authorization":', `"${SECRET}"}`]);
    assert.match(
      error.message,
      /^unexpected argument at position 3: it does not start with - \(a value with spaces must be one argument, e\.g\. --headers='\{…\}'\); see --help$/,
    );
    assertNoPartOf(SECRET, error.message);
  });

  test('MUST NOT quote a --headers value split over two arguments in the --name=value form', () => {
    const error = configError([
      '--endpoint=https://api.example.com/',
      '--headers={"Authorization":',
      `"${SECRET}"}`,
    ]);
    assert.match(error.message, /unexpected argument at position 3/);
    assertNoPartOf(SECRET, error.message);
  });

  test('MUST NOT quote an unknown option that does not look like an option name', () => {
    const error = configError(['--headers={}', `-${SECRET.slice(7)}`]);
    assert.match(error.message, /^unknown option at position 2 \(not shown/);
    assertNoPartOf(SECRET, error.message);
  });

  test('a lone "-" is an error naming its position', () => {
    const error = configError(['--timeout=5', '-']);
    assert.match(error.message, /unexpected argument at position 2: a dash without an option name/);
  });

  test('a lone "--" is an error', () => {
    configError(['--']);
  });

  test('an option given twice is an error naming it', () => {
    const error = configError(['--timeout=1000', '--timeout=2000']);
    assert.match(error.message, /--timeout/);
    assert.match(error.message, /more than once/);
  });

  test('an option given twice in its long and short forms is an error naming it', () => {
    const error = configError(['--endpoint=https://a.example.com/', '-e', 'https://b.example.com/']);
    assert.match(error.message, /--endpoint/);
    assert.match(error.message, /more than once/);
  });

  test('--headers given twice is an error that quotes neither value', () => {
    const error = configError([`--headers={"A":"${SECRET}"}`, '-H', `{"B":"${SECRET}"}`]);
    assert.match(error.message, /--headers/);
    assert.match(error.message, /more than once/);
  });

  test('an option without its value at the end is an error naming it', () => {
    const error = configError(['--endpoint']);
    assert.match(error.message, /--endpoint/);
    assert.match(error.message, /needs a value/);
  });

  test('an option followed by another option instead of a value is an error naming it', () => {
    const error = configError(['--timeout', '--readOnly']);
    assert.match(error.message, /--timeout/);
    assert.match(error.message, /needs a value/);
  });

  test('a short option without its value is an error naming it', () => {
    const error = configError(['-H']);
    assert.match(error.message, /-H/);
    assert.match(error.message, /needs a value/);
  });
});

describe('parseCommand --mutations (who decides a mutation)', () => {
  test('defaults to confirm: the user is asked when the client can ask', () => {
    assert.equal(serve([]).mutations, 'confirm');
  });

  for (const policy of ['confirm', 'require-confirm', 'allow', 'deny'] as const) {
    test(`takes ${policy}, from the argument or GRAPHQL_MUTATIONS`, () => {
      assert.equal(serve([`--mutations=${policy}`]).mutations, policy);
      assert.equal(serve([], { GRAPHQL_MUTATIONS: policy }).mutations, policy);
    });
  }

  test('deny is read-only, and --readOnly is deny', () => {
    assert.equal(serve(['--mutations=deny']).readOnly, true);
    assert.equal(serve(['--readOnly']).mutations, 'deny');
    assert.equal(serve(['--readOnly', '--mutations=deny']).mutations, 'deny');
  });

  test('refuses --readOnly with a policy that lets mutations run, naming both', () => {
    assert.match(
      configError(['--readOnly', '--mutations=allow']).message,
      /--readOnly .*--mutations is allow/,
    );
  });

  test('refuses an unknown policy, naming the ones there are', () => {
    assert.match(
      configError(['--mutations=ask']).message,
      /--mutations must be confirm, require-confirm, allow, deny, got "ask"/,
    );
  });

  test('--confirmTimeout is a number of seconds from 1 to 3600, 300 by default', () => {
    assert.equal(settings([]).confirmTimeout, 300);
    assert.equal(settings(['--confirmTimeout=30']).confirmTimeout, 30);
    assert.match(
      configError(['--confirmTimeout=0']).message,
      /--confirmTimeout must be a whole number from 1 to 3600/,
    );
  });
});

describe('parseCommand --stateKey', () => {
  const KEY = 'k'.repeat(40);

  test('is read in remote mode, from the argument or GRAPHQL_MCP_STATE_KEY', () => {
    assert.equal(settings(['--transport=http', `--stateKey=${KEY}`]).http.stateKey, KEY);
    assert.equal(settings(['--transport=http'], { GRAPHQL_MCP_STATE_KEY: KEY }).http.stateKey, KEY);
  });

  test('MUST be at least 32 characters, and the message MUST NOT quote it', () => {
    const message = configError(['--transport=http', '--stateKey=short-secret-123']).message;
    assert.match(message, /--stateKey must be at least 32 characters/);
    assert.ok(!message.includes('short-secret-123'));
  });

  test('applies only in remote mode', () => {
    assert.match(configError([`--stateKey=${KEY}`]).message, /--stateKey applies only with --transport=http/);
  });
});

describe('parseCommand --trustedDocumentsOnly', () => {
  test('MUST name --schema when it is missing: an API of trusted documents only refuses the introspection query', () => {
    const message = configError(['--persistedQueries=apollo', '--trustedDocumentsOnly']).message;
    assert.match(
      message,
      /^--trustedDocumentsOnly needs --schema \(the API's schema as SDL or an introspection result as JSON\)/,
    );
  });

  test('is taken with --persistedQueries and --schema', () => {
    const config = serve(['--persistedQueries=apollo', '--trustedDocumentsOnly', '--schema=schema.graphql']);
    assert.equal(config.protocol.trustedOnly, true);
  });
});
