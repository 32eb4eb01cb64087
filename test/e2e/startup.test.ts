// The binary's command line, end to end: every option of docs/contract.md's table in each accepted form, the
// environment fallbacks, the defaults, and the one-line exit-code-2 failure for every bad value.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { graphql } from 'graphql';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { CLI, startMcp, texts, type McpSession } from '../fixtures/mcp.ts';
import { responseOf } from '../fixtures/client-views.ts';

const SECRET = 's3cr3t-XYZ';
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const ENV_NAMES = [
  'GRAPHQL_ENDPOINT',
  'GRAPHQL_HEADERS',
  'GRAPHQL_TIMEOUT',
  'GRAPHQL_MAX_COMPLEXITY',
  'GRAPHQL_ALLOWED_ENDPOINTS',
  'GRAPHQL_READ_ONLY',
  'GRAPHQL_MAX_RESPONSE_BYTES',
];

// ---------------------------------------------------------------------------------------------------------
// Helpers

interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Startup checks run side by side, this many at a time: each spawns a process that takes about 150 ms of CPU
 * to start, and dozens at once on a shared 2-core machine took longer than a hang guard should wait.
 */
const PARALLEL = 4;
/** A process that neither exits nor serves is killed after this long: a start takes a fraction of a second. */
const HANG_MS = 30_000;

/** Like runCli, but asynchronous, so that startup checks can run side by side. */
function run(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    // An empty stdin: a valid configuration serves, sees the end of input and exits 0.
    child.stdin.end();
  });
}

/** Asserts the contract's startup failure: exit 2, one stderr line naming the option, no stack, no secret. */
function assertStartupError(result: RunResult, option: string, expected: RegExp): void {
  const shown = `status ${result.status}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  assert.equal(result.status, 2, shown);
  assert.equal(result.stdout, '', 'nothing on stdout');
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, 1, `exactly one stderr line\n${shown}`);
  const line = lines[0]!;
  assert.ok(line.includes(option), `the line names ${option}: ${line}`);
  assert.match(line, expected, 'the line says what was expected');
  assert.doesNotMatch(result.stderr, /^\s+at .*[(:]/m, 'no stack trace');
  assert.doesNotMatch(result.stderr, /Error:|SyntaxError|TypeError/, 'no raw exception');
  assert.ok(!(result.stdout + result.stderr).includes(SECRET), 'the header value is never printed');
}

/** Starts a session, runs `use` with it and always closes it. */
async function withMcp<T>(
  args: readonly string[],
  env: Record<string, string>,
  use: (session: McpSession) => Promise<T>,
): Promise<T> {
  const session = await startMcp(args, env);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

interface TestServer {
  readonly origin: string;
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** A plain HTTP server on 127.0.0.1 that reads each request body, then lets `handle` answer. */
async function startHttp(
  handle: (path: string, body: string, res: ServerResponse) => void | Promise<void>,
  port = 0,
): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    await handle(req.url ?? '', body, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${actual}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, payload: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

/** A GraphQL response body of exactly `bytes` bytes. */
function responseOfSize(bytes: number): string {
  const overhead = '{"data":{"s":""}}'.length;
  return `{"data":{"s":"${'x'.repeat(bytes - overhead)}"}}`;
}

/** `{ authors { f1: id f2: id … } }`: 1 + n fields. */
function wideQuery(idFields: number): string {
  const ids = Array.from({ length: idFields }, (_, i) => `f${i}: id`).join(' ');
  return `{ authors { ${ids} } }`;
}

const BOOKS = '{ books(first: 1) { title } }';
const THREE_FIELDS = '{ books(first: 1) { title year } }';
const MUTATION = 'mutation { addReview(bookId: "b2", rating: 4) { id } }';

function firstText(result: Awaited<ReturnType<McpSession['call']>>): string {
  return texts(result)[0] ?? '';
}

// ---------------------------------------------------------------------------------------------------------
// Servers shared by the file

let demo: RunningGraphQLServer;
let other: RunningGraphQLServer;
let tools: TestServer;

before(async () => {
  const api = createLibraryApi();
  demo = await serveGraphQL(api.schema, api.rootValue);
  const otherApi = createLibraryApi();
  other = await serveGraphQL(otherApi.schema, otherApi.rootValue);
  // /slow never answers; /delay?ms=N answers after N ms; /big?bytes=N answers with N bytes.
  tools = await startHttp(async (path, _body, res) => {
    const url = new URL(path, 'http://localhost');
    if (url.pathname === '/slow') return;
    if (url.pathname === '/delay') {
      await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('ms'))));
      return sendJson(res, '{"data":{"ok":true}}');
    }
    if (url.pathname === '/big') return sendJson(res, responseOfSize(Number(url.searchParams.get('bytes'))));
    res.writeHead(404).end();
  });
});

after(async () => {
  await Promise.all([demo.close(), other.close(), tools.close()]);
});

// ---------------------------------------------------------------------------------------------------------

describe('--help and --version', () => {
  for (const flag of ['--help', '-h']) {
    test(`${flag} prints the usage naming every option to stdout and exits 0`, async () => {
      const result = await run([flag]);
      assert.equal(result.status, 0);
      assert.equal(result.stderr, '');
      for (const option of [
        '--endpoint',
        '-e',
        '--headers',
        '-H',
        '--timeout',
        '-t',
        '--maxComplexity',
        '-m',
        '--allowedEndpoints',
        '--readOnly',
        '--maxResponseBytes',
        '--help',
        '--version',
        ...ENV_NAMES,
      ]) {
        assert.ok(result.stdout.includes(option), `usage mentions ${option}`);
      }
    });
  }

  for (const flag of ['--version', '-v']) {
    test(`${flag} prints the package version to stdout and exits 0`, async () => {
      const result = await run([flag]);
      assert.equal(result.status, 0);
      assert.equal(result.stdout.trim(), PACKAGE_VERSION);
      assert.equal(result.stderr, '');
    });
  }
});

describe('bad values stop startup with exit code 2 and one stderr line', { concurrency: PARALLEL }, () => {
  const cases: Array<{
    what: string;
    args?: string[];
    env?: Record<string, string>;
    option: string;
    expected: RegExp;
  }> = [
    // --endpoint
    {
      what: 'an --endpoint that is not a URL',
      args: ['--endpoint=not a url'],
      option: '--endpoint',
      expected: /URL/,
    },
    {
      what: 'a relative --endpoint',
      args: ['--endpoint', '/graphql'],
      option: '--endpoint',
      expected: /URL/,
    },
    { what: 'an empty --endpoint=', args: ['--endpoint='], option: '--endpoint', expected: /URL/ },
    { what: 'an ftp: -e', args: ['-e', 'ftp://example.com/graphql'], option: '-e', expected: /http/ },
    {
      what: 'an --endpoint with user-info',
      args: [`--endpoint=http://user:${SECRET}@127.0.0.1:4000/graphql`],
      option: '--endpoint',
      expected: /credentials|user/i,
    },
    {
      what: 'a GRAPHQL_ENDPOINT with the scheme ftp:',
      env: { GRAPHQL_ENDPOINT: 'ftp://example.com/graphql' },
      option: 'GRAPHQL_ENDPOINT',
      expected: /http/,
    },
    {
      what: 'a GRAPHQL_ENDPOINT that is not a URL',
      env: { GRAPHQL_ENDPOINT: 'localhost graphql' },
      option: 'GRAPHQL_ENDPOINT',
      expected: /URL/,
    },
    // --headers
    {
      what: 'malformed JSON in --headers',
      args: [`--headers={"Authorization":"Bearer ${SECRET}"`],
      option: '--headers',
      expected: /JSON object/,
    },
    {
      what: 'malformed JSON in -H',
      args: ['-H', `{"Authorization": Bearer ${SECRET}}`],
      option: '-H',
      expected: /JSON object/,
    },
    {
      what: 'a JSON array in --headers',
      args: [`--headers=["${SECRET}"]`],
      option: '--headers',
      expected: /JSON object/,
    },
    {
      what: 'a JSON string in --headers',
      args: [`--headers="${SECRET}"`],
      option: '--headers',
      expected: /JSON object/,
    },
    {
      what: 'JSON null in --headers',
      args: ['--headers=null'],
      option: '--headers',
      expected: /JSON object/,
    },
    {
      what: 'a JSON number in --headers',
      args: ['--headers=42'],
      option: '--headers',
      expected: /JSON object/,
    },
    {
      what: 'a header value that is an object',
      args: [`--headers={"Authorization":{"token":"${SECRET}"}}`],
      option: '--headers',
      expected: /string/,
    },
    {
      what: 'a header value that is an array',
      args: [`--headers={"Authorization":["${SECRET}"]}`],
      option: '--headers',
      expected: /string/,
    },
    {
      what: 'a header value that is null',
      args: [`--headers={"X-Token":"${SECRET}","Authorization":null}`],
      option: '--headers',
      expected: /string/,
    },
    {
      what: 'a header value holding CR LF',
      args: [`--headers={"X-Api-Key":"${SECRET}\\r\\nX-Injected: 1"}`],
      option: '--headers',
      expected: /line break|control/,
    },
    {
      what: 'a header value holding a bare LF',
      args: ['-H', `{"X-Api-Key":"${SECRET}\\nX-Injected: 1"}`],
      option: '-H',
      expected: /line break|control/,
    },
    {
      what: 'a header name that is not an HTTP token',
      args: [`--headers={"X Api Key":"${SECRET}"}`],
      option: '--headers',
      expected: /header name/,
    },
    {
      what: 'malformed JSON in GRAPHQL_HEADERS',
      env: { GRAPHQL_HEADERS: `{"Authorization":"Bearer ${SECRET}",}` },
      option: 'GRAPHQL_HEADERS',
      expected: /JSON object/,
    },
    {
      what: 'a JSON array in GRAPHQL_HEADERS',
      env: { GRAPHQL_HEADERS: `["Authorization","${SECRET}"]` },
      option: 'GRAPHQL_HEADERS',
      expected: /JSON object/,
    },
    {
      what: 'a header value that is an object in GRAPHQL_HEADERS',
      env: { GRAPHQL_HEADERS: `{"Authorization":{"value":"${SECRET}"}}` },
      option: 'GRAPHQL_HEADERS',
      expected: /string/,
    },
    {
      what: 'a header value holding CR LF in GRAPHQL_HEADERS',
      env: { GRAPHQL_HEADERS: `{"Authorization":"Bearer ${SECRET}\\r\\nX-Injected: 1"}` },
      option: 'GRAPHQL_HEADERS',
      expected: /line break|control/,
    },
    // --timeout
    {
      what: 'a --timeout that is not a number',
      args: ['--timeout=soon'],
      option: '--timeout',
      expected: /number/,
    },
    { what: 'a -t of 0', args: ['-t', '0'], option: '-t', expected: /1 to 600000/ },
    { what: 'a negative -t', args: ['-t', '-5'], option: '-t', expected: /1 to 600000/ },
    {
      what: 'a --timeout above 600000',
      args: ['--timeout', '600001'],
      option: '--timeout',
      expected: /600000/,
    },
    {
      what: 'a fractional --timeout',
      args: ['--timeout=1.5'],
      option: '--timeout',
      expected: /whole number/,
    },
    {
      what: 'a GRAPHQL_TIMEOUT that is not a number',
      env: { GRAPHQL_TIMEOUT: 'later' },
      option: 'GRAPHQL_TIMEOUT',
      expected: /number/,
    },
    {
      what: 'a GRAPHQL_TIMEOUT of 0',
      env: { GRAPHQL_TIMEOUT: '0' },
      option: 'GRAPHQL_TIMEOUT',
      expected: /number/,
    },
    // --maxComplexity
    { what: 'a negative -m', args: ['-m', '-1'], option: '-m', expected: /0 or more/ },
    {
      what: 'a --maxComplexity that is not a number',
      args: ['--maxComplexity=ten'],
      option: '--maxComplexity',
      expected: /number/,
    },
    {
      what: 'a fractional --maxComplexity',
      args: ['--maxComplexity', '2.5'],
      option: '--maxComplexity',
      expected: /whole number/,
    },
    {
      what: 'a GRAPHQL_MAX_COMPLEXITY that is not a number',
      env: { GRAPHQL_MAX_COMPLEXITY: 'lots' },
      option: 'GRAPHQL_MAX_COMPLEXITY',
      expected: /number/,
    },
    // --maxResponseBytes
    {
      what: 'a --maxResponseBytes of 0',
      args: ['--maxResponseBytes=0'],
      option: '--maxResponseBytes',
      expected: /1 or more/,
    },
    {
      what: 'a --maxResponseBytes with a unit',
      args: ['--maxResponseBytes', '1MB'],
      option: '--maxResponseBytes',
      expected: /number/,
    },
    {
      what: 'a negative GRAPHQL_MAX_RESPONSE_BYTES',
      env: { GRAPHQL_MAX_RESPONSE_BYTES: '-1' },
      option: 'GRAPHQL_MAX_RESPONSE_BYTES',
      expected: /number/,
    },
    // --allowedEndpoints
    {
      what: 'an ftp: entry in --allowedEndpoints',
      args: ['--allowedEndpoints=ftp://example.com/graphql'],
      option: '--allowedEndpoints',
      expected: /http/,
    },
    {
      what: 'an entry that is not a URL in --allowedEndpoints',
      args: ['--allowedEndpoints', 'https://api.example.com/graphql,not a url'],
      option: '--allowedEndpoints',
      expected: /URL/,
    },
    {
      what: 'an entry with user-info in --allowedEndpoints',
      args: [`--allowedEndpoints=https://user:${SECRET}@api.example.com/graphql`],
      option: '--allowedEndpoints',
      expected: /credentials|user/i,
    },
    {
      what: 'an --allowedEndpoints of only commas',
      args: ['--allowedEndpoints=,'],
      option: '--allowedEndpoints',
      expected: /URL/,
    },
    {
      what: 'a GRAPHQL_ALLOWED_ENDPOINTS that is not a URL',
      env: { GRAPHQL_ALLOWED_ENDPOINTS: 'api.example.com' },
      option: 'GRAPHQL_ALLOWED_ENDPOINTS',
      expected: /URL/,
    },
    // --readOnly
    {
      what: '--readOnly=yes',
      args: ['--readOnly=yes'],
      option: '--readOnly',
      expected: /true, false, 1 or 0/,
    },
    {
      what: 'an empty --readOnly=',
      args: ['--readOnly='],
      option: '--readOnly',
      expected: /true, false, 1 or 0/,
    },
    {
      what: 'GRAPHQL_READ_ONLY=maybe',
      env: { GRAPHQL_READ_ONLY: 'maybe' },
      option: 'GRAPHQL_READ_ONLY',
      expected: /true, false, 1 or 0/,
    },
    // unknown options and stray arguments
    { what: 'an unknown option', args: ['--bogus'], option: '--bogus', expected: /unknown option/ },
    {
      what: 'an unknown option with a value',
      args: ['--bogus=1'],
      option: '--bogus',
      expected: /unknown option/,
    },
    { what: 'an unknown short option', args: ['-x'], option: '-x', expected: /unknown option/ },
    {
      what: 'a misspelt option',
      args: ['--max-complexity=5'],
      option: '--max-complexity',
      expected: /unknown option.*--maxComplexity/,
    },
    {
      what: 'a stray positional argument',
      args: ['serve'],
      option: 'position 1',
      expected: /unexpected argument/,
    },
    // missing values
    { what: '--endpoint without a value', args: ['--endpoint'], option: '--endpoint', expected: /value/ },
    { what: '-t without a value', args: ['-t'], option: '-t', expected: /value/ },
    { what: '--headers without a value', args: ['--headers'], option: '--headers', expected: /value/ },
    { what: '-H followed by another option', args: ['-H', '--readOnly'], option: '-H', expected: /value/ },
    { what: '-m without a value', args: ['-m'], option: '-m', expected: /value/ },
    {
      what: '--allowedEndpoints without a value',
      args: ['--allowedEndpoints'],
      option: '--allowedEndpoints',
      expected: /value/,
    },
    {
      what: '--maxResponseBytes without a value',
      args: ['--maxResponseBytes'],
      option: '--maxResponseBytes',
      expected: /value/,
    },
    // nothing is silently ignored
    {
      what: 'an option given twice',
      args: ['-t', '100', '--timeout=200'],
      option: '--timeout',
      expected: /more than once/,
    },
  ];

  for (const { what, args = [], env = {}, option, expected } of cases) {
    test(`MUST exit 2 naming ${option} on ${what}`, async () => {
      assertStartupError(await run(args, env), option, expected);
    });
  }

  // Issue 18, finding 5: an argument or a header name that could be a value is located, never quoted.
  const TOKEN = 'Bearer sk-proj-4Hq8Zt2Lw9Xv';
  function assertNoPartOfToken(result: RunResult): void {
    const output = result.stdout + result.stderr;
    for (let start = 0; start + 8 <= TOKEN.length; start++) {
      const part = TOKEN.slice(start, start + 8);
      assert.ok(!output.includes(part), `the output holds ${JSON.stringify(part)}: ${output}`);
    }
  }

  test('MUST NOT print a --headers value split over two arguments: exit 2 naming the position of the stray part', async () => {
    const result = await run(['--headers', '{"Authorization":', `"${TOKEN}"}`]);
    assertStartupError(result, 'position 3', /does not start with -.*must be one argument/);
    assertNoPartOfToken(result);
  });

  test('MUST NOT print a header name that is really a value: exit 2 naming its position in --headers', async () => {
    const result = await run([`--headers=${JSON.stringify({ [TOKEN]: 'x' })}`]);
    assertStartupError(result, '--headers', /the 1st header name is not a valid HTTP header name/);
    assertNoPartOfToken(result);
  });

  test('MUST NOT print a header name that is really a value in GRAPHQL_HEADERS', async () => {
    const result = await run([], { GRAPHQL_HEADERS: JSON.stringify({ Accept: 'x', [TOKEN]: 'x' }) });
    assertStartupError(result, 'GRAPHQL_HEADERS', /the 2nd header name is not a valid HTTP header name/);
    assertNoPartOfToken(result);
  });

  test('MUST NOT print a value that starts with a dash as an unknown option', async () => {
    const result = await run(['--timeout=5', `-${TOKEN.slice(7)}`]);
    assertStartupError(result, 'position 2', /unknown option/);
    assertNoPartOfToken(result);
  });

  test('MUST NOT print the value of --headers however it is malformed', async () => {
    const results = await Promise.all(
      [
        `{"Authorization":"${SECRET}`,
        `{'Authorization':'${SECRET}'}`,
        `${SECRET}`,
        `[{"Authorization":"${SECRET}"}]`,
        `{"Authorization":"${SECRET}","X":{}}`,
      ].map((headers) => run([`--headers=${headers}`], { GRAPHQL_HEADERS: `{"A":"${SECRET}` })),
    );
    for (const result of results) assertStartupError(result, '--headers', /JSON object|string/);
  });
});

describe('accepted values start the server', { concurrency: PARALLEL }, () => {
  const cases: Array<{ what: string; args?: string[]; env?: Record<string, string> }> = [
    { what: '--timeout=1', args: ['--timeout=1'] },
    { what: '-t 600000', args: ['-t', '600000'] },
    { what: '--maxComplexity=0', args: ['--maxComplexity=0'] },
    { what: '--maxResponseBytes=1', args: ['--maxResponseBytes=1'] },
    { what: 'an https --endpoint', args: ['--endpoint=https://api.example.com/graphql'] },
    { what: 'a bare origin in --allowedEndpoints', args: ['--allowedEndpoints=https://api.example.com'] },
    { what: 'a --headers value of {}', args: ['--headers={}'] },
    {
      what: 'every environment variable set but empty',
      env: Object.fromEntries(ENV_NAMES.map((n) => [n, ''])),
    },
  ];
  for (const { what, args = [], env = {} } of cases) {
    test(`accepts ${what}`, async () => {
      const result = await run(args, env);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, '');
      assert.doesNotMatch(result.stderr, /must|unknown|needs/);
    });
  }
});

describe('--endpoint', () => {
  const forms: Array<{
    what: string;
    args: (url: string) => string[];
    env: (url: string) => Record<string, string>;
  }> = [
    { what: '--endpoint=<url>', args: (url) => [`--endpoint=${url}`], env: () => ({}) },
    { what: '--endpoint <url>', args: (url) => ['--endpoint', url], env: () => ({}) },
    { what: '-e <url>', args: (url) => ['-e', url], env: () => ({}) },
    { what: 'GRAPHQL_ENDPOINT', args: () => [], env: (url) => ({ GRAPHQL_ENDPOINT: url }) },
  ];
  for (const form of forms) {
    test(`${form.what} sets the endpoint a call without one goes to`, async () => {
      const before = demo.requests.length;
      const result = await withMcp(form.args(demo.url), form.env(demo.url), (s) =>
        s.call('graphql_query', { query: BOOKS }),
      );
      assert.equal(result.isError, undefined, firstText(result));
      assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
      assert.equal(demo.requests.length, before + 1);
    });
  }

  test('an --endpoint argument wins over GRAPHQL_ENDPOINT', async () => {
    const [demoBefore, otherBefore] = [demo.requests.length, other.requests.length];
    await withMcp([`--endpoint=${demo.url}`], { GRAPHQL_ENDPOINT: other.url }, (s) =>
      s.call('graphql_query', { query: BOOKS }),
    );
    assert.equal(demo.requests.length, demoBefore + 1);
    assert.equal(other.requests.length, otherBefore);
  });

  describe('the default endpoint', () => {
    let local: TestServer | undefined;
    before(async () => {
      const api = createLibraryApi();
      try {
        local = await startHttp(async (_path, body, res) => {
          const params = JSON.parse(body) as { query: string };
          sendJson(
            res,
            JSON.stringify(
              await graphql({ schema: api.schema, source: params.query, rootValue: api.rootValue }),
            ),
          );
        }, 4000);
      } catch {
        local = undefined; // port 4000 is taken here: the tests below are skipped
      }
    });
    after(async () => {
      await local?.close();
    });

    test('is http://localhost:4000/graphql when none is given', async (t) => {
      if (local === undefined) return t.skip('port 4000 is in use on this machine');
      const result = await withMcp([], {}, (s) => s.call('graphql_query', { query: BOOKS }));
      assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
      assert.equal(local.requests.at(-1)?.path, '/graphql');
      assert.equal(local.requests.at(-1)?.headers.host, 'localhost:4000');
    });

    test('is used when GRAPHQL_ENDPOINT is empty (an empty variable counts as unset)', async (t) => {
      if (local === undefined) return t.skip('port 4000 is in use on this machine');
      const before = local.requests.length;
      const result = await withMcp([], { GRAPHQL_ENDPOINT: '' }, (s) =>
        s.call('graphql_query', { query: BOOKS }),
      );
      assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
      assert.equal(local.requests.length, before + 1);
    });
  });
});

describe('--headers', () => {
  const json = '{"X-Test":"form-value"}';
  const forms: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: '--headers=<json>', args: [`--headers=${json}`], env: {} },
    { what: '--headers <json>', args: ['--headers', json], env: {} },
    { what: '-H <json>', args: ['-H', json], env: {} },
    { what: 'GRAPHQL_HEADERS', args: [], env: { GRAPHQL_HEADERS: json } },
  ];
  for (const form of forms) {
    test(`a header given by ${form.what} reaches the default endpoint`, async () => {
      await withMcp([`--endpoint=${demo.url}`, ...form.args], form.env, (s) =>
        s.call('graphql_query', { query: BOOKS }),
      );
      assert.equal(demo.requests.at(-1)?.headers['x-test'], 'form-value');
    });
  }

  test('number and boolean header values are sent as strings', async () => {
    await withMcp([`--endpoint=${demo.url}`, '--headers={"X-Num":42,"X-Flag":true}'], {}, (s) =>
      s.call('graphql_query', { query: BOOKS }),
    );
    assert.equal(demo.requests.at(-1)?.headers['x-num'], '42');
    assert.equal(demo.requests.at(-1)?.headers['x-flag'], 'true');
  });

  test('--headers replaces GRAPHQL_HEADERS as a whole, with no merging', async () => {
    await withMcp(
      [`--endpoint=${demo.url}`, '--headers={"X-Both":"from-argument"}'],
      { GRAPHQL_HEADERS: '{"X-Both":"from-env","X-Env-Only":"from-env"}' },
      (s) => s.call('graphql_query', { query: BOOKS }),
    );
    const headers = demo.requests.at(-1)?.headers;
    assert.equal(headers?.['x-both'], 'from-argument');
    assert.equal(headers?.['x-env-only'], undefined);
  });

  test('an empty GRAPHQL_HEADERS counts as unset', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`], { GRAPHQL_HEADERS: '' }, (s) =>
      s.call('graphql_query', { query: BOOKS }),
    );
    assert.equal(result.isError, undefined, firstText(result));
    assert.equal(demo.requests.at(-1)?.headers.authorization, undefined);
  });
});

describe('--timeout', () => {
  /**
   * How long past the 300 ms deadline a call may end: /slow never answers, so only a deadline that is not
   * enforced passes this; a call ends a few ms past it, many times less also on a loaded machine.
   */
  const LATE_MS = 10_000;
  async function timeOutAgainstSlowServer(args: string[], env: Record<string, string>) {
    return withMcp(args, env, async (s) => {
      const started = performance.now();
      const result = await s.call('graphql_query', { query: BOOKS, endpoint: `${tools.origin}/slow` });
      return { result, elapsed: performance.now() - started };
    });
  }

  const forms: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: '--timeout=300', args: ['--timeout=300'], env: {} },
    { what: '--timeout 300', args: ['--timeout', '300'], env: {} },
    { what: '-t 300', args: ['-t', '300'], env: {} },
    { what: 'GRAPHQL_TIMEOUT=300', args: [], env: { GRAPHQL_TIMEOUT: '300' } },
  ];
  for (const form of forms) {
    test(`${form.what} makes a request time out at 300 ms`, async () => {
      const { result, elapsed } = await timeOutAgainstSlowServer(form.args, form.env);
      assert.equal(result.isError, true);
      assert.match(firstText(result), /^TIMEOUT: .*\b300 ms/);
      assert.ok(elapsed >= 280, `timed out after ${elapsed} ms, not before the deadline`);
      assert.ok(elapsed < 300 + LATE_MS, `timed out after ${elapsed} ms, long after the deadline`);
    });
  }

  test('a --timeout argument wins over GRAPHQL_TIMEOUT', async () => {
    const { result, elapsed } = await timeOutAgainstSlowServer(['-t', '300'], { GRAPHQL_TIMEOUT: '20000' });
    assert.match(firstText(result), /^TIMEOUT: .*\b300 ms/);
    assert.ok(elapsed < 300 + LATE_MS, `timed out after ${elapsed} ms`);
  });

  test('by default a response that takes a second still arrives', async () => {
    const result = await withMcp([], {}, (s) =>
      s.call('graphql_query', { query: BOOKS, endpoint: `${tools.origin}/delay?ms=1000` }),
    );
    assert.deepEqual(result.structuredContent, { data: { ok: true } });
  });
});

describe('--maxComplexity', () => {
  const forms: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: '--maxComplexity=2', args: ['--maxComplexity=2'], env: {} },
    { what: '--maxComplexity 2', args: ['--maxComplexity', '2'], env: {} },
    { what: '-m 2', args: ['-m', '2'], env: {} },
    { what: 'GRAPHQL_MAX_COMPLEXITY=2', args: [], env: { GRAPHQL_MAX_COMPLEXITY: '2' } },
  ];
  for (const form of forms) {
    test(`${form.what} refuses a query of 3 fields with COMPLEXITY_LIMIT`, async () => {
      const before = demo.requests.length;
      const result = await withMcp([`--endpoint=${demo.url}`, ...form.args], form.env, (s) =>
        s.call('graphql_query', { query: THREE_FIELDS }),
      );
      assert.equal(result.isError, true);
      assert.match(firstText(result), /^COMPLEXITY_LIMIT: /);
      assert.match(firstText(result), /\b3\b/, 'gives the complexity counted');
      assert.match(firstText(result), /\b2\b/, 'gives the limit');
      assert.equal(demo.requests.length, before, 'the query is not sent');
    });
  }

  test('-m 2 lets a query of 2 fields through', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`, '-m', '2'], {}, (s) =>
      s.call('graphql_query', { query: BOOKS }),
    );
    assert.equal(result.isError, undefined, firstText(result));
  });

  test('a --maxComplexity argument wins over GRAPHQL_MAX_COMPLEXITY', async () => {
    const result = await withMcp(
      [`--endpoint=${demo.url}`, '-m', '5'],
      { GRAPHQL_MAX_COMPLEXITY: '1' },
      (s) => s.call('graphql_query', { query: THREE_FIELDS }),
    );
    assert.equal(result.isError, undefined, firstText(result));
  });

  test('the default limit of 100 lets a query of 100 fields through', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`], {}, (s) =>
      s.call('graphql_query', { query: wideQuery(99) }),
    );
    assert.equal(result.isError, undefined, firstText(result));
  });

  test('the default limit of 100 refuses a query of 101 fields', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`], {}, (s) =>
      s.call('graphql_query', { query: wideQuery(100) }),
    );
    assert.match(firstText(result), /^COMPLEXITY_LIMIT: .*\b100\b/);
  });

  test('-m 0 turns the complexity check off', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`, '-m', '0'], {}, (s) =>
      s.call('graphql_query', { query: wideQuery(500) }),
    );
    assert.equal(result.isError, undefined, firstText(result));
  });
});

describe('--allowedEndpoints', () => {
  const forms: Array<{
    what: string;
    args: (url: string) => string[];
    env: (url: string) => Record<string, string>;
  }> = [
    { what: '--allowedEndpoints=<urls>', args: (url) => [`--allowedEndpoints=${url}`], env: () => ({}) },
    { what: '--allowedEndpoints <urls>', args: (url) => ['--allowedEndpoints', url], env: () => ({}) },
    { what: 'GRAPHQL_ALLOWED_ENDPOINTS', args: () => [], env: (url) => ({ GRAPHQL_ALLOWED_ENDPOINTS: url }) },
  ];
  for (const form of forms) {
    test(`${form.what} refuses an endpoint that is not listed`, async () => {
      const listed = `${tools.origin}/delay`;
      const result = await withMcp([`--endpoint=${demo.url}`, ...form.args(listed)], form.env(listed), (s) =>
        s.call('graphql_query', { query: BOOKS, endpoint: other.url }),
      );
      assert.match(firstText(result), /^ENDPOINT_NOT_ALLOWED: /);
    });
  }

  test('an --allowedEndpoints argument wins over GRAPHQL_ALLOWED_ENDPOINTS', async () => {
    const results = await withMcp(
      [`--endpoint=${tools.origin}/delay`, `--allowedEndpoints=${demo.url}`],
      { GRAPHQL_ALLOWED_ENDPOINTS: other.url },
      async (s) => [
        await s.call('graphql_query', { query: BOOKS, endpoint: demo.url }),
        await s.call('graphql_query', { query: BOOKS, endpoint: other.url }),
      ],
    );
    assert.equal(results[0]?.isError, undefined, firstText(results[0]!));
    assert.match(firstText(results[1]!), /^ENDPOINT_NOT_ALLOWED: /);
  });

  test('an empty GRAPHQL_ALLOWED_ENDPOINTS counts as unset: any endpoint may be called', async () => {
    const result = await withMcp([`--endpoint=${demo.url}`], { GRAPHQL_ALLOWED_ENDPOINTS: '' }, (s) =>
      s.call('graphql_query', { query: BOOKS, endpoint: other.url }),
    );
    assert.equal(result.isError, undefined, firstText(result));
  });
});

describe('--readOnly', () => {
  async function mutationRefused(args: string[], env: Record<string, string>): Promise<boolean> {
    const result = await withMcp([`--endpoint=${demo.url}`, ...args], env, (s) =>
      s.call('graphql_query', { query: MUTATION, allowMutations: true }),
    );
    if (result.isError === true) assert.match(firstText(result), /^MUTATION_NOT_ALLOWED: /);
    else assert.deepEqual(Object.keys(responseOf(result) ?? {}), ['data']);
    return result.isError === true;
  }

  const on: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: '--readOnly alone', args: ['--readOnly'], env: {} },
    { what: '--readOnly=true', args: ['--readOnly=true'], env: {} },
    { what: '--readOnly=TRUE', args: ['--readOnly=TRUE'], env: {} },
    { what: '--readOnly=1', args: ['--readOnly=1'], env: {} },
    { what: 'GRAPHQL_READ_ONLY=true', args: [], env: { GRAPHQL_READ_ONLY: 'true' } },
    { what: 'GRAPHQL_READ_ONLY=True', args: [], env: { GRAPHQL_READ_ONLY: 'True' } },
    { what: 'GRAPHQL_READ_ONLY=1', args: [], env: { GRAPHQL_READ_ONLY: '1' } },
    {
      what: '--readOnly over GRAPHQL_READ_ONLY=false',
      args: ['--readOnly'],
      env: { GRAPHQL_READ_ONLY: 'false' },
    },
  ];
  for (const form of on) {
    test(`${form.what} refuses mutations even with allowMutations`, async () => {
      assert.equal(await mutationRefused(form.args, form.env), true);
    });
  }

  const off: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: 'no --readOnly', args: [], env: {} },
    { what: '--readOnly=false', args: ['--readOnly=false'], env: {} },
    { what: '--readOnly=False', args: ['--readOnly=False'], env: {} },
    { what: '--readOnly=0', args: ['--readOnly=0'], env: {} },
    { what: 'GRAPHQL_READ_ONLY=false', args: [], env: { GRAPHQL_READ_ONLY: 'false' } },
    { what: 'GRAPHQL_READ_ONLY=FALSE', args: [], env: { GRAPHQL_READ_ONLY: 'FALSE' } },
    { what: 'GRAPHQL_READ_ONLY=0', args: [], env: { GRAPHQL_READ_ONLY: '0' } },
    { what: 'an empty GRAPHQL_READ_ONLY', args: [], env: { GRAPHQL_READ_ONLY: '' } },
    {
      what: '--readOnly=false over GRAPHQL_READ_ONLY=true',
      args: ['--readOnly=false'],
      env: { GRAPHQL_READ_ONLY: 'true' },
    },
  ];
  for (const form of off) {
    test(`${form.what} lets a mutation with allowMutations through`, async () => {
      assert.equal(await mutationRefused(form.args, form.env), false);
    });
  }
});

describe('--maxResponseBytes', () => {
  async function fetchBytes(args: string[], env: Record<string, string>, bytes: number) {
    return withMcp(args, env, (s) =>
      s.call('graphql_query', { query: '{ s }', endpoint: `${tools.origin}/big?bytes=${bytes}` }),
    );
  }

  const forms: Array<{ what: string; args: string[]; env: Record<string, string> }> = [
    { what: '--maxResponseBytes=200', args: ['--maxResponseBytes=200'], env: {} },
    { what: '--maxResponseBytes 200', args: ['--maxResponseBytes', '200'], env: {} },
    { what: 'GRAPHQL_MAX_RESPONSE_BYTES=200', args: [], env: { GRAPHQL_MAX_RESPONSE_BYTES: '200' } },
  ];
  for (const form of forms) {
    test(`${form.what} refuses a body of 201 bytes with RESPONSE_TOO_LARGE`, async () => {
      const result = await fetchBytes(form.args, form.env, 201);
      assert.equal(result.isError, true);
      assert.match(firstText(result), /^RESPONSE_TOO_LARGE: .*\b200\b/);
    });
  }

  test('--maxResponseBytes=200 accepts a body of exactly 200 bytes', async () => {
    const result = await fetchBytes(['--maxResponseBytes=200'], {}, 200);
    assert.equal(result.isError, undefined, firstText(result));
  });

  test('a --maxResponseBytes argument wins over GRAPHQL_MAX_RESPONSE_BYTES', async () => {
    const result = await fetchBytes(['--maxResponseBytes=5000'], { GRAPHQL_MAX_RESPONSE_BYTES: '100' }, 1000);
    assert.equal(result.isError, undefined, firstText(result));
  });

  test('the default limit of 1048576 bytes accepts a body of exactly that size', async () => {
    const result = await fetchBytes([], {}, 1_048_576);
    assert.equal(result.isError, undefined, firstText(result).slice(0, 200));
  });

  test('the default limit of 1048576 bytes refuses one byte more', async () => {
    const result = await fetchBytes([], {}, 1_048_577);
    assert.match(firstText(result), /^RESPONSE_TOO_LARGE: .*\b1048576\b/);
  });
});
