// Hostile input, property-based (fast-check, fixed seed): random JSON for every input of both tools,
// random and deeply nested documents, enormous strings, "__proto__" and "constructor" keys, header names
// and values with CR/LF or non-ASCII. For every case: a result or a clear error code within its deadline.
// For the whole file: the process never crashes, its event loop is never held for a second (measured from
// outside by a ping heartbeat, as the CPU time its main thread used during each ping, so that a busy machine
// does not count), and its stdout carries nothing but JSON-RPC. How long each huge input holds the loop is a
// figure of bench/responsiveness.ts (tens of ms), not asserted here.
//
// All cases go through one server process spoken to in raw JSON-RPC (test/stress/harness.ts), a batch of
// calls in flight at a time. The server may call only the fault server on 127.0.0.1 (--allowedEndpoints),
// so no generated endpoint can make it reach anything else. GRAPHQL_MCP_FUZZ_SCALE multiplies the case
// counts (npm run test:stress sets 5).
import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { Kind, Lexer, parse, Source, TokenKind } from 'graphql';
import { createLibraryApi } from '../../demo/library-api.ts';
import { graphqlHandler, respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { hugeInputs } from '../fixtures/huge-inputs.ts';
import { runCli } from '../fixtures/mcp.ts';
import {
  classify,
  FUZZ_SCALE,
  Heartbeat,
  RawMcp,
  type CallOutcome,
  type ErrorCode,
  type JsonRpcMessage,
} from '../stress/harness.ts';

const SEED = 20_240_404;
/** Calls in flight at once within a batch. */
const BATCH = 8;
const TIMEOUT_MS = 2_000;
/**
 * Each call must answer within its request deadline plus this allowance: the deadline covers the HTTP
 * request only, and the allowance covers moving up to 10 MB through a pipe and parsing it on a shared,
 * busy machine (about a second at worst). Most calls here are refused before any request or answered by a
 * local server in ms; a call that hangs never answers.
 */
const ALLOWANCE_MS = 20_000;
/**
 * How long the event loop may be held at a time, in CPU time of the server's main thread: many times what
 * the hugest input takes (parsing 10 MB of JSON: tens of ms, 152 ms seen on a slow machine), and far below
 * the seconds that work done all at once on the loop takes (the old result shaping held it for tens of them).
 */
const MAX_BUSY_MS = 1_000;
const MAX_TOKENS = 15_000;
// The server's documented nesting limit (src/graphql/operation.ts MAX_DEPTH, README's SYNTAX_ERROR).
const MAX_DEPTH = 1_000;
const STARTUP_HEADER = { name: 'X-Startup', value: 'startup-value' };
/** Headers every request carries besides the call's own (fetch adds the last four). */
const STANDARD_HEADERS = new Set([
  'host',
  'connection',
  'content-type',
  'content-length',
  'accept',
  'user-agent',
  'accept-language',
  'sec-fetch-mode',
  'accept-encoding',
  'x-startup',
]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const MANAGED = new Set(['host', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

let fault: FaultServer;
let session: RawMcp;
let heartbeat: Heartbeat;
let cases = 0;
let endpoint: string;
let echo: string;

before(async () => {
  fault = await startFaultServer();
  const api = createLibraryApi();
  endpoint = fault.route('/graphql', graphqlHandler(api.schema, api.rootValue));
  echo = fault.route('/echo', respond.echo());
  session = new RawMcp([
    `--endpoint=${endpoint}`,
    `--allowedEndpoints=${fault.origin}/`,
    `--timeout=${TIMEOUT_MS}`,
    '--maxComplexity=50',
    `--headers=${JSON.stringify({ [STARTUP_HEADER.name]: STARTUP_HEADER.value })}`,
  ]);
  await session.initialize();
  heartbeat = new Heartbeat(session, 10);
});

after(async () => {
  await heartbeat?.stop();
  session?.kill();
  await fault?.close();
});

// ---------------------------------------------------------------------------------------------------------
// Calls and checks

interface Answer {
  readonly outcome: CallOutcome;
  readonly ms: number;
}

/** One tools/call with arguments given as JSON text; checks it is answered clearly within its deadline. */
async function call(tool: string, argumentsJson: string, deadlineMs = TIMEOUT_MS): Promise<Answer> {
  cases++;
  const start = performance.now();
  const big = argumentsJson.length > 1_000_000;
  if (big) heartbeat.pause();
  const { written, answer } = session.callToolRaw(tool, argumentsJson, deadlineMs + ALLOWANCE_MS);
  if (big) await written.finally(() => heartbeat.resume());
  const message: JsonRpcMessage = await answer;
  const ms = performance.now() - start;
  const outcome = classify(message);
  const shown = argumentsJson.length > 400 ? `${argumentsJson.slice(0, 400)}…` : argumentsJson;
  assert.notEqual(
    outcome.kind,
    'unclear',
    `${tool} ${shown}: ${outcome.kind === 'unclear' ? outcome.why : ''}`,
  );
  assert.notEqual(
    outcome.kind,
    'protocol-error',
    `${tool} ${shown}: a JSON-RPC error instead of a tool result: ${JSON.stringify(message.error)}`,
  );
  return { outcome, ms };
}

function codeOf(outcome: CallOutcome): ErrorCode | 'RESULT' {
  return outcome.kind === 'error' ? outcome.code : 'RESULT';
}

/** The call went to the endpoint and came back with its GraphQL response. */
function reached(outcome: CallOutcome): boolean {
  return outcome.kind === 'success' || outcome.kind === 'graphql-errors';
}

/** The event loop was not held for MAX_BUSY_MS at a time during the test; the figures go to the report. */
async function assertLoopNeverBlocked(t: TestContext): Promise<void> {
  await heartbeat.settle();
  const figures = heartbeat.window();
  t.diagnostic(
    `heartbeat: ${figures.pings} pings, longest round trip ${Math.round(figures.maxRoundTripMs)} ms, longest busy ${Math.round(figures.maxBusyMs)} ms`,
  );
  assert.ok(figures.pings > 0, 'no ping was answered');
  assert.ok(figures.maxBusyMs <= MAX_BUSY_MS, `the event loop was busy for ${figures.worst}`);
}

/**
 * Runs a property over batches of BATCH cases in flight at once, `runs` cases in all (times the fuzz
 * scale). A failure names the seed and the first failing case only: batches are too large to print.
 */
async function fuzz<T>(
  t: TestContext,
  arbitrary: fc.Arbitrary<T>,
  runs: number,
  check: (value: T) => Promise<void>,
): Promise<void> {
  const before = cases;
  let firstFailure: unknown;
  heartbeat.label(t.name);
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitrary, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all(
          batch.map((value) =>
            check(value).catch((error: unknown) => {
              firstFailure ??= error;
              throw error;
            }),
          ),
        );
      }),
      { seed: SEED, numRuns: Math.ceil((runs * FUZZ_SCALE) / BATCH), endOnFailure: true },
    );
  } catch (error) {
    if (firstFailure === undefined) throw error;
    const where = /\{ seed: [^}]*\}/.exec(String(error))?.[0] ?? `seed ${SEED}`;
    const message = firstFailure instanceof Error ? firstFailure.message : String(firstFailure);
    throw new Error(`${where}: ${message.slice(0, 2_000)}`, { cause: error });
  }
  t.diagnostic(`${cases - before} cases`);
  await assertLoopNeverBlocked(t);
}

// ---------------------------------------------------------------------------------------------------------
// Arbitraries

/** Any JSON value, with strings of any code point (lone surrogates included) and special numbers. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, -0, 1e308, -1, 0.5, 2 ** 53 + 2, '', ' ', '\u0000', '{}', '[]'),
  },
);

const graphqlName = fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,8}$/);
const keywords = ['query', 'mutation', 'subscription', 'fragment', 'on', 'true', 'false', 'null'];

/** A name, often one of the words GraphQL gives meaning to. */
const nameish = fc.oneof(graphqlName, fc.constantFrom(...keywords, '__typename', 'Mutation', 'Query'));

/** Random documents from a grammar: operations of every kind, aliases, arguments, fragments, directives. */
const documentArb: fc.Arbitrary<string> = fc
  .letrec<{ value: string; selection: string; selections: string; operation: string; fragment: string }>(
    (tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.integer().map(String),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => String(n)),
        fc.string({ unit: 'binary', maxLength: 12 }).map((s) => JSON.stringify(s)),
        fc.string({ maxLength: 12 }).map((s) => `"""${s.replace(/"""/g, '\\"""')}"""`),
        nameish.map((n) => (n === 'true' || n === 'false' || n === 'null' ? n : `$${n}`)),
        nameish,
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
        fc
          .array(fc.tuple(nameish, tie('value')), { maxLength: 3 })
          .map((fields) => `{${fields.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
      ),
      selection: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc
          .tuple(
            fc.option(nameish),
            nameish,
            fc.array(fc.tuple(nameish, tie('value')), { maxLength: 2 }),
            fc.option(nameish),
            fc.option(tie('selections')),
          )
          .map(([alias, name, args, directive, sub]) => {
            const a = alias === null ? '' : `${alias}: `;
            const ar = args.length === 0 ? '' : `(${args.map(([k, v]) => `${k}: ${v}`).join(' ')})`;
            const d = directive === null ? '' : ` @${directive}`;
            return `${a}${name}${ar}${d}${sub === null ? '' : ` ${sub}`}`;
          }),
        fc.tuple(nameish, fc.option(nameish)).map(([f, d]) => `...${f}${d === null ? '' : ` @${d}`}`),
        fc
          .tuple(fc.option(nameish), tie('selections'))
          .map(([type, sub]) => `... ${type === null ? '' : `on ${type} `}${sub}`),
      ),
      selections: fc.array(tie('selection'), { minLength: 1, maxLength: 4 }).map((s) => `{ ${s.join(' ')} }`),
      operation: fc.oneof(
        tie('selections'),
        fc
          .tuple(fc.constantFrom('query', 'mutation', 'subscription'), fc.option(nameish), tie('selections'))
          .map(([kind, name, sel]) => `${kind}${name === null ? '' : ` ${name}`} ${sel}`),
      ),
      fragment: fc
        .tuple(nameish, nameish, tie('selections'))
        .map(([name, type, sel]) => `fragment ${name} on ${type} ${sel}`),
    }),
  )
  .operation.chain((first) =>
    fc
      .array(fc.oneof(documentPart('operation'), documentPart('fragment')), { maxLength: 3 })
      .map((rest) => [first, ...rest].join(' ')),
  );

/** Defined after documentArb's grammar: a second definition of a given kind for multi-definition documents. */
function documentPart(kind: 'operation' | 'fragment'): fc.Arbitrary<string> {
  return kind === 'operation'
    ? fc
        .tuple(
          fc.constantFrom('query', 'mutation', 'subscription'),
          nameish,
          fc.array(nameish, { minLength: 1, maxLength: 3 }),
        )
        .map(([k, name, fields]) => `${k} ${name} { ${fields.join(' ')} }`)
    : fc
        .tuple(nameish, nameish, fc.array(nameish, { minLength: 1, maxLength: 3 }))
        .map(([name, type, fields]) => `fragment ${name} on ${type} { ${fields.join(' ')} }`);
}

/** Token soup: GraphQL's punctuators, keywords, literals, comments and ignored characters in any order. */
const tokenSoup: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{',
        '}',
        '(',
        ')',
        '[',
        ']',
        ':',
        '$',
        '@',
        '!',
        '=',
        '...',
        '|',
        '&',
        ',',
        '\uFEFF',
        '\t',
        '\n',
        '\r\n',
      ),
      fc.constantFrom(...keywords),
      graphqlName,
      fc.constantFrom(
        '"s"',
        '"""b"""',
        '"\\u00e9"',
        '"\\"',
        '"""',
        '#c\n',
        '1',
        '-0.5e3',
        '.5',
        '0x1',
        '"unterminated',
      ),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 60 },
  )
  .map((tokens) => tokens.join(' '));

/** Selections nested `depth` deep: deep enough to exhaust a recursive parser's stack near the top. */
const deepDocument = fc
  .integer({ min: 1, max: 20_000 })
  .map((depth) => `${'{ a '.repeat(depth)}${'}'.repeat(depth)}`);

const anyDocument = fc.oneof(
  { weight: 5, arbitrary: documentArb },
  { weight: 3, arbitrary: tokenSoup },
  { weight: 1, arbitrary: deepDocument },
);

/** Endpoints: junk, the fault server's paths, other hosts (refused by --allowedEndpoints), bad URLs. */
function endpointArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    anyJson.map(loopbackOnly),
    fc.constantFrom(
      endpoint,
      echo,
      `${fault.origin}/nowhere`,
      `${fault.origin}/graphql?x=1#y`,
      `  ${endpoint}  `,
      'http://127.0.0.2:9/graphql',
      'http://graphql-mcp-fuzz.invalid/graphql',
      `http://user:pw@127.0.0.1:${fault.port}/graphql`,
      'ftp://127.0.0.1/graphql',
      'javascript:alert(1)',
      'file:///etc/passwd',
      `http://[::1]:${fault.port}/graphql`,
      'http://127.0.0.1:99999/graphql',
      'graphql',
      '',
    ),
    fc.string({ unit: 'binary', maxLength: 20 }).map((path) => `${fault.origin}/${path}`),
  );
}

/**
 * A generated value that would parse as an http(s) URL on a host other than 127.0.0.1 becomes one on
 * 127.0.0.2 (loopback too, and not allowed), so that no generated string can reach a real host even if
 * the allow-list failed.
 */
function loopbackOnly(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const url = new URL(value.trim());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1') {
      return 'http://127.0.0.2:9/graphql';
    }
  } catch {
    // not a URL: fine as it is
  }
  return value;
}

/** Header names: valid tokens, and names with CR/LF, spaces, colons, non-ASCII or nothing at all. */
const headerName = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^X-[A-Za-z0-9-]{1,10}$/) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'X-A\r\nX-Injected',
      'X-A\nX-Injected',
      'X-A\r',
      'Ünïcode',
      'X-日本',
      '',
      'X A',
      'X-A:',
      'Host',
      'content-length',
      'Transfer-Encoding',
      'Authorization',
      'Content-Type',
      '__proto__',
      'constructor',
      'X-\u0000',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

/** Header values: plain ones, and ones with CR/LF injections, NUL, Latin-1, non-Latin-1 and emoji. */
const headerValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a\r\nX-Injected: 1',
      'a\nX-Injected: 1',
      'a\rX-Injected: 1',
      '\r\n\r\nGET / HTTP/1.1',
      'nul\u0000byte',
      'café ÿ',
      '日本語',
      'emoji 🙂',
      'tab\tinside',
      '  padded  ',
      'del\u007f',
      'Bearer abc.def-ghi',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant({ a: 1 }),
      fc.constant([1]),
    ),
  },
);

/** Object keys that mean something to JavaScript objects, and ordinary ones. */
const protoKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '__defineGetter__',
  ),
  graphqlName,
);

/** JSON text of an object whose keys include "__proto__" and "constructor", written literally. */
const protoObjectText: fc.Arbitrary<string> = fc.letrec<{ object: string; value: string }>((tie) => ({
  object: fc
    .array(fc.tuple(protoKey, tie('value')), { maxLength: 4 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
    tie('object'),
  ),
})).object;

// ---------------------------------------------------------------------------------------------------------
// Oracles

/**
 * What graphql-js makes of a document here. 'deep' is a document that exhausts this process's stack:
 * whether it exhausts the server's too depends on each process's stack, so either answer is right.
 */
/**
 * graphql-js's verdict in this process, and 'deep' for a document the server refuses as nested more than
 * MAX_DEPTH levels (its documented limit, counted here from graphql-js's lexer) or that overflows the stack.
 */
function localParse(document: string): 'ok' | 'syntax' | 'deep' {
  try {
    const lexer = new Lexer(new Source(document));
    let depth = 0;
    let tokens = 0;
    for (
      let token = lexer.advance();
      token.kind !== TokenKind.EOF && ++tokens <= MAX_TOKENS;
      token = lexer.advance()
    ) {
      if ([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L].includes(token.kind)) depth++;
      if ([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R].includes(token.kind)) depth--;
      if (depth > MAX_DEPTH) return 'deep';
    }
  } catch {
    // Not lexable: parse says so below.
  }
  try {
    parse(document, { maxTokens: MAX_TOKENS });
    return 'ok';
  } catch (error) {
    return error instanceof RangeError ? 'deep' : 'syntax';
  }
}

function hasMutation(document: string): boolean {
  return parse(document, { maxTokens: MAX_TOKENS }).definitions.some(
    (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation',
  );
}

const QUERY_INPUTS = [
  'query',
  'variables',
  'operationName',
  'endpoint',
  'headers',
  'timeout',
  'allowMutations',
];
const INTROSPECT_INPUTS = ['endpoint', 'headers', 'includeDeprecated'];

/** A random input the tool does not know, with a value that is not null (null counts as left out). */
function unknownInputs(args: Record<string, unknown>, known: readonly string[]): boolean {
  return Object.entries(args).some(([key, value]) => !known.includes(key) && value !== null);
}

const byMarker = new Map<string, (typeof fault.requests)[number]>();
let indexed = 0;

/** The request the fault server received with this marker as its operationName, if any. */
function requestMarked(marker: string) {
  // Indexed as requests arrive: tens of thousands of bodies must not be parsed again on every lookup.
  for (; indexed < fault.requests.length; indexed++) {
    const request = fault.requests[indexed]!;
    try {
      const { operationName } = JSON.parse(request.body) as { operationName?: unknown };
      if (typeof operationName === 'string') byMarker.set(operationName, request);
    } catch {
      // not JSON: no marker
    }
  }
  return byMarker.get(marker);
}

let markers = 0;

// ---------------------------------------------------------------------------------------------------------

describe('random JSON for every tool input', () => {
  test('graphql_query answers every combination of random inputs with a result or a clear error code', async (t) => {
    const args = fc
      .tuple(
        fc.record(
          {
            query: fc.oneof(anyJson, anyDocument),
            variables: fc.oneof(
              anyJson,
              fc.dictionary(fc.string(), anyJson, { maxKeys: 4 }),
              fc.jsonValue().map((v) => JSON.stringify(v)),
            ),
            operationName: fc.oneof(anyJson, nameish),
            endpoint: endpointArb(),
            headers: fc.oneof(anyJson, fc.dictionary(headerName, headerValue, { maxKeys: 3 })),
            timeout: fc.oneof(
              anyJson,
              fc.integer({ min: -10, max: 700_000 }),
              fc.constantFrom(0, 1, 50, 600_000, 600_001, 1.5),
            ),
            allowMutations: fc.oneof(anyJson, fc.boolean()),
          },
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));
    await fuzz(t, args, 1_200, async (input) => {
      const { outcome } = await call('graphql_query', JSON.stringify(input));
      const query = input.query;
      if (typeof query !== 'string' || query.trim() === '' || unknownInputs(input, QUERY_INPUTS)) {
        assert.equal(codeOf(outcome), 'INVALID_INPUT', JSON.stringify(input).slice(0, 300));
      }
    });
  });

  test('graphql_introspect answers every combination of random inputs with a result or a clear error code', async (t) => {
    const args = fc
      .tuple(
        fc.record(
          {
            endpoint: endpointArb(),
            headers: fc.oneof(anyJson, fc.dictionary(headerName, headerValue, { maxKeys: 3 })),
            includeDeprecated: fc.oneof(anyJson, fc.boolean()),
          },
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 2 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));
    await fuzz(t, args, 400, async (input) => {
      const { outcome } = await call('graphql_introspect', JSON.stringify(input));
      if (unknownInputs(input, INTROSPECT_INPUTS)) assert.equal(codeOf(outcome), 'INVALID_INPUT');
    });
  });

  test('arguments that are not an object get a JSON-RPC error, and the server keeps serving', async (t) => {
    heartbeat.label(t.name);
    const values = fc.sample(
      anyJson.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
      {
        seed: SEED,
        numRuns: 50 * FUZZ_SCALE,
      },
    );
    for (const tool of ['graphql_query', 'graphql_introspect']) {
      for (const value of values) {
        cases++;
        const message = await session.callToolRaw(tool, JSON.stringify(value), 10_000).answer;
        const outcome = classify(message);
        assert.ok(
          outcome.kind === 'protocol-error' || outcome.kind === 'error',
          `${tool} with arguments ${JSON.stringify(value)}: ${JSON.stringify(message).slice(0, 300)}`,
        );
      }
    }
    await assertLoopNeverBlocked(t);
  });
});

describe('random and hostile documents', () => {
  test('every random document gets a result or a clear code, SYNTAX_ERROR exactly when graphql-js cannot parse it', async (t) => {
    const input = fc.record(
      { query: anyDocument, allowMutations: fc.option(fc.boolean(), { nil: undefined }) },
      { requiredKeys: ['query'] },
    );
    await fuzz(t, input, 1_500, async ({ query, allowMutations }) => {
      const args = allowMutations === undefined ? { query } : { query, allowMutations };
      const { outcome } = await call('graphql_query', JSON.stringify(args));
      const code = codeOf(outcome);
      if (query.trim() === '') return assert.equal(code, 'INVALID_INPUT');
      const local = localParse(query);
      const shown = JSON.stringify(query).slice(0, 300);
      if (local === 'syntax') return assert.equal(code, 'SYNTAX_ERROR', shown);
      if (local === 'deep') return assert.equal(code, 'SYNTAX_ERROR', shown);
      assert.notEqual(
        code,
        'SYNTAX_ERROR',
        `${shown} parses, but: ${outcome.kind === 'error' ? outcome.text : ''}`,
      );
      if (hasMutation(query) && allowMutations !== true) {
        assert.ok(!reached(outcome), `MUST NOT send a mutation without allowMutations: ${shown}`);
      }
    });
  });

  // One case each, with the heartbeat measuring how long the event loop stayed busy on it.
  for (const { name, tool = 'graphql_query', args, codes } of hugeInputs(() => fault.origin)) {
    test(`${name} gets ${codes.join(' or ')} without blocking the event loop for a second`, async (t) => {
      await heartbeat.settle();
      heartbeat.window(); // a fresh window for this case
      heartbeat.label(name);
      const { outcome, ms } = await call(tool, args());
      t.diagnostic(
        `answered in ${Math.round(ms)} ms: ${outcome.kind === 'error' ? outcome.text.slice(0, 120) : outcome.kind}`,
      );
      assert.ok(
        codes.includes(codeOf(outcome)),
        `got ${outcome.kind === 'error' ? outcome.text.slice(0, 300) : outcome.kind}`,
      );
      await assertLoopNeverBlocked(t);
      const next = await call('graphql_query', JSON.stringify({ query: '{ book(id: "b1") { title } }' }));
      assert.equal(next.outcome.kind, 'success');
    });
  }
});

describe('"__proto__" and "constructor" keys', () => {
  test('variables holding "__proto__" and "constructor" keys reach the endpoint exactly as given', async (t) => {
    await fuzz(t, protoObjectText, 300, async (variables) => {
      const marker = `Proto${++markers}`;
      const { outcome } = await call(
        'graphql_query',
        `{"query":"query ${marker} { __typename }","operationName":"${marker}","variables":${variables}}`,
      );
      assert.equal(outcome.kind, 'success', variables);
      const sent = requestMarked(marker);
      assert.ok(sent, `no request for ${marker}`);
      const received = (JSON.parse(sent.body) as { variables: unknown }).variables;
      // Both sides come from JSON.parse, which makes "__proto__" an own key, as it does for any name.
      assert.deepEqual(received, JSON.parse(variables), `sent ${variables}`);
    });
  });

  test('headers named "__proto__" and "constructor" are sent as the headers given, and nothing else is', async (t) => {
    const headers = fc.array(fc.tuple(protoKey, fc.stringMatching(/^[a-z0-9 -]{1,12}$/)), {
      minLength: 1,
      maxLength: 4,
    });
    await fuzz(t, headers, 300, async (entries) => {
      const marker = `Headers${++markers}`;
      const headersText = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
      const { outcome } = await call(
        'graphql_query',
        `{"query":"query ${marker} { __typename }","operationName":"${marker}","headers":${headersText}}`,
      );
      assert.equal(outcome.kind, 'success', headersText);
      assertHeadersArrived(requestMarked(marker), entries, headersText);
    });
  });
});

/**
 * The request carried exactly the standard headers and the given ones (the last of a name wins). A value
 * above ASCII may go on the wire as Latin-1 or as UTF-8 bytes (the test server reads bytes as Latin-1):
 * either is the value given. A header named "__proto__" may be dropped by the HTTP client, but nothing
 * may be added in its place.
 */
function assertHeadersArrived(
  request: ReturnType<typeof requestMarked>,
  given: ReadonlyArray<readonly [string, string]>,
  shown: string,
): void {
  assert.ok(request, `no request for ${shown}`);
  const expected = new Map<string, string>();
  for (const [name, value] of given) expected.set(name.toLowerCase(), value.replace(/^[ \t]+|[ \t]+$/g, ''));
  const arrived = new Map<string, string[]>();
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!.toLowerCase();
    arrived.set(name, [...(arrived.get(name) ?? []), request.rawHeaders[i + 1]!]);
  }
  const asUtf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');
  for (const [name, value] of expected) {
    if (name === '__proto__' && !arrived.has(name)) continue;
    const values = arrived.get(name) ?? [];
    assert.ok(
      values.length === 1 && (values[0] === value || asUtf8(values[0]!) === value),
      `header ${name} of ${shown} arrived as ${JSON.stringify(values)}`,
    );
  }
  for (const name of arrived.keys()) {
    assert.ok(
      STANDARD_HEADERS.has(name) || expected.has(name),
      `an unexpected header ${name} arrived for ${shown}`,
    );
  }
}

describe('header names and values with CR/LF or non-ASCII', () => {
  test('MUST refuse a header that HTTP cannot carry with INVALID_INPUT, and send every other exactly', async (t) => {
    const headers = fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 3 });
    await fuzz(t, headers, 600, async (entries) => {
      const marker = `Crlf${++markers}`;
      const headersText = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
      const { outcome } = await call(
        'graphql_query',
        `{"query":"query ${marker} { __typename }","operationName":"${marker}","headers":${headersText}}`,
      );
      const sendable = entries.every(
        ([name, value]) =>
          TOKEN.test(name) &&
          !MANAGED.has(name.toLowerCase()) &&
          (typeof value === 'number' ||
            typeof value === 'boolean' ||
            (typeof value === 'string' && FIELD_VALUE.test(value))),
      );
      if (!sendable) {
        assert.equal(codeOf(outcome), 'INVALID_INPUT', headersText);
        assert.equal(requestMarked(marker), undefined, `a refused header was sent: ${headersText}`);
        return;
      }
      assert.equal(outcome.kind, 'success', headersText);
      assertHeadersArrived(
        requestMarked(marker),
        entries.map(([name, value]) => [name, String(value)] as const),
        headersText,
      );
    });
  });

  test('MUST NOT let a header inject another header into any request', () => {
    for (const request of fault.requests) {
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        assert.notEqual(
          request.rawHeaders[i]!.toLowerCase(),
          'x-injected',
          JSON.stringify(request.rawHeaders),
        );
      }
    }
  });

  test('graphql_introspect refuses a header that HTTP cannot carry with INVALID_INPUT', async (t) => {
    const headers = fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 3 });
    await fuzz(t, headers, 200, async (entries) => {
      const headersText = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
      const { outcome } = await call('graphql_introspect', `{"headers":${headersText}}`);
      const sendable = entries.every(
        ([name, value]) =>
          TOKEN.test(name) &&
          !MANAGED.has(name.toLowerCase()) &&
          (typeof value === 'number' ||
            typeof value === 'boolean' ||
            (typeof value === 'string' && FIELD_VALUE.test(value))),
      );
      if (!sendable) assert.equal(codeOf(outcome), 'INVALID_INPUT', headersText);
      else assert.notEqual(codeOf(outcome), 'INVALID_INPUT', headersText);
    });
  });

  test('startup headers with CR/LF or non-ASCII either start the server or stop it with exit code 2 and one line naming the option', (t) => {
    const startup = fc.tuple(
      fc.array(fc.tuple(headerName, headerValue), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
    );
    let runs = 0;
    fc.assert(
      fc.property(startup, ([entries, viaEnv]) => {
        runs++;
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        const run = viaEnv
          ? runCli([`--endpoint=${endpoint}`], { GRAPHQL_HEADERS: text })
          : runCli([`--endpoint=${endpoint}`, `--headers=${text}`]);
        const option = viaEnv ? 'GRAPHQL_HEADERS' : '--headers';
        assert.ok(run.status === 0 || run.status === 2, `exit ${run.status} for ${text}: ${run.stderr}`);
        assert.equal(run.stdout, '', 'nothing on stdout');
        if (run.status === 2) {
          const lines = run.stderr.trimEnd().split('\n');
          assert.equal(lines.length, 1, `one line: ${run.stderr}`);
          assert.ok(lines[0]!.startsWith(`graphql-mcp: ${option}`), run.stderr);
          assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
          for (const [, value] of entries) {
            if (typeof value === 'string' && value.length >= 8)
              assert.ok(!run.stderr.includes(value), run.stderr);
          }
        }
      }),
      // Each case starts a process: the stress run doubles these, not more.
      { seed: SEED, numRuns: 24 * Math.min(FUZZ_SCALE, 2) },
    );
    cases += runs;
    t.diagnostic(`${runs} start-ups`);
  });
});

describe('the process', () => {
  test('a request over the transport’s 10 MiB message limit ends the process with exit code 0 instead of hanging', async () => {
    // The SDK's stdio transport drops a session whose message passes 10 MiB; what matters is that the
    // client is not left waiting on a process that neither answers nor exits.
    const own = new RawMcp([`--endpoint=${endpoint}`]);
    try {
      await own.initialize();
      const { answer } = own.callToolRaw(
        'graphql_query',
        JSON.stringify({ query: `{ a } #${'x'.repeat(11 * 1024 * 1024)}` }),
        10_000,
      );
      const ended = await Promise.race([
        own.exit.then((exit) => ({ exit })),
        answer.then((message) => ({ message })).catch(() => ({ timedOut: true })),
      ]);
      if ('exit' in ended) assert.equal(ended.exit.code, 0);
      else assert.ok('message' in ended, 'neither an answer nor an exit within 10 s');
      assert.deepEqual(own.strayLines, []);
    } finally {
      own.kill();
    }
  });

  test('MUST write nothing but JSON-RPC 2.0 messages to stdout, one answer per request', async (t) => {
    await heartbeat.settle();
    const messages = session.stdoutMessages();
    assert.deepEqual(session.strayLines, []);
    const answered = new Set(messages.filter((m) => m.method === undefined).map((m) => m.id));
    t.diagnostic(`${messages.length} messages on stdout, ${cases} fuzz cases in this file`);
    assert.ok(answered.size >= cases, `${answered.size} answers for ${cases} cases`);
  });

  test('never crashed: still serving, and exits with code 0 when stdin closes', async () => {
    assert.equal(session.child.exitCode, null, 'the process has exited');
    const ok = await call('graphql_query', JSON.stringify({ query: '{ book(id: "b1") { title } }' }));
    assert.equal(ok.outcome.kind, 'success');
    await heartbeat.stop();
    const exit = await session.close();
    assert.equal(exit.code, 0);
    assert.equal(exit.signal, null);
    assert.equal(
      session.stderr().toString('utf8').trim().split('\n').length,
      1,
      'only the start-up line on stderr',
    );
  });
});
