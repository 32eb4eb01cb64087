// The person decides: a mutation the model allowed runs only once the user confirms it, through the client. Real
// clients answer the question: the SDK v1 client (2025 era, elicitation/create over stdio) and the SDK v2 client
// (2026-07-28, an input_required result answered on a retried call, over stdio and HTTP). The API's own log
// proves what was sent, and that the document shown is the document the API received.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import type { TestIssuer } from '../fixtures/issuer.ts';
import { CLI } from '../fixtures/mcp.ts';
import { modernClient } from '../fixtures/modern-client.ts';
import { startOAuthRemote } from '../fixtures/oauth-remote.ts';

const MODERN = '2026-07-28';
const TOKEN = 'Bearer tok-Conf1rm-9f8e7d6c5b4a';
const ADD_REVIEW =
  'mutation Add($id: ID!, $text: String) { addReview(bookId: $id, rating: 5, text: $text) { rating } }';

type Action = 'accept' | 'decline' | 'cancel' | 'never';

interface Result {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** A client whose user answers each question with the next action of `answers`, recording every question. */
interface AnsweringClient {
  readonly questions: string[];
  answers: Action[];
  call(name: string, args: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
}

let api: RunningGraphQLServer;
let dir: string;

before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
  dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-confirm-'));
  writeFileSync(
    join(dir, 'reviews.graphql'),
    [
      '# Adds a five-star review.',
      'mutation Praise($id: ID!) { addReview(bookId: $id, rating: 5) { rating } }',
      '',
      '# Adds a one-star review; its author vouches for it.',
      '# graphql-mcp: no-confirm',
      'mutation Pan($id: ID!) { addReview(bookId: $id, rating: 1) { rating } }',
      '',
    ].join('\n'),
  );
});
after(async () => {
  await api?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const text = (result: Result) => result.content[0]?.text ?? '';
/** The mutations the API received, in order. */
const mutationsSent = () =>
  api.requests.filter((request) => /^mutation\b/.test((JSON.parse(request.body) as { query: string }).query));

function answerer(answers: Action[], questions: string[]) {
  return async (message: string) => {
    questions.push(message);
    const action = answers.shift() ?? 'decline';
    // A user who never answers: the question stays open until the server gives up on it.
    if (action === 'never') return new Promise<never>(() => undefined);
    return { action };
  };
}

function stdioArgs(extra: readonly string[]) {
  return [CLI, `--endpoint=${api.url}`, `--headers={"Authorization":"${TOKEN}"}`, ...extra];
}

async function clientV1(
  extra: readonly string[] = [],
  canAsk = true,
  url?: string,
): Promise<AnsweringClient> {
  const questions: string[] = [];
  const state = { answers: [] as Action[] };
  const client = new ClientV1(
    { name: 'confirm-2025', version: '1.0.0' },
    { capabilities: canAsk ? { elicitation: {} } : {} },
  );
  if (canAsk) {
    const answer = answerer(state.answers, questions);
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  }
  await client.connect(
    url !== undefined
      ? new HttpTransportV1(new URL(url))
      : new StdioTransportV1({
          command: process.execPath,
          args: stdioArgs(extra),
          env: { PATH: process.env.PATH ?? '' },
          stderr: 'ignore',
        }),
  );
  return wrap(
    questions,
    state,
    async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
    () => client.close(),
  );
}

async function clientV2(
  extra: readonly string[] = [],
  canAsk = true,
  url?: string,
): Promise<AnsweringClient & { client: ClientV2 }> {
  const questions: string[] = [];
  const state = { answers: [] as Action[] };
  const client = new ClientV2(
    { name: 'confirm-2026', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: MODERN } },
      capabilities: canAsk ? { elicitation: { form: {} } } : {},
    },
  );
  if (canAsk) {
    const answer = answerer(state.answers, questions);
    client.setRequestHandler('elicitation/create', async (request) => answer(request.params.message));
  }
  await client.connect(
    url !== undefined
      ? new HttpTransportV2(new URL(url))
      : new StdioTransportV2({
          command: process.execPath,
          args: stdioArgs(extra),
          env: { PATH: process.env.PATH ?? '' },
          stderr: 'ignore',
        }),
  );
  const wrapped = wrap(
    questions,
    state,
    async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
    () => client.close(),
  );
  return Object.assign(wrapped, { client });
}

function wrap(
  questions: string[],
  state: { answers: Action[] },
  call: AnsweringClient['call'],
  close: () => Promise<void>,
): AnsweringClient {
  return {
    questions,
    get answers() {
      return state.answers;
    },
    set answers(next: Action[]) {
      state.answers.length = 0;
      state.answers.push(...next);
    },
    call,
    close,
  };
}

const addReview = (text = 'Loved it') => ({
  query: ADD_REVIEW,
  variables: { id: 'b1', text },
  allowMutations: true,
});

/** The behaviours every client that can ask gets, whatever its era and transport. */
function aPersonDecides(connect: () => Promise<AnsweringClient>): void {
  let client: AnsweringClient;
  before(async () => (client = await connect()));
  after(() => client.close());

  test('MUST run an accepted mutation exactly once, after asking', async () => {
    const before = mutationsSent().length;
    client.answers = ['accept'];
    const result = await client.call('graphql_query', addReview());
    assert.notEqual(result.isError, true, text(result));
    assert.deepEqual(result.structuredContent, { data: { addReview: { rating: 5 } } });
    assert.equal(mutationsSent().length, before + 1);
    assert.equal(client.questions.length, 1);
  });

  test('MUST show the document the API receives, with the endpoint, operation and arguments filled in', async () => {
    client.questions.length = 0;
    client.answers = ['accept'];
    await client.call('graphql_query', addReview('A fine book'));
    const question = client.questions[0]!;
    const sent = JSON.parse(mutationsSent().at(-1)!.body) as { query: string };
    assert.ok(question.includes(`Document as sent: ${sent.query}`), question);
    assert.match(question, new RegExp(`changes data at ${api.url.replace(/[.]/g, '\\.')}`));
    assert.match(question, /Operation: Add/);
    assert.match(question, /addReview\(bookId: "b1", rating: 5, text: "A fine book"\)/);
  });

  for (const action of ['decline', 'cancel'] as const) {
    test(`MUST NOT send a mutation the user answered with ${action}, and say MUTATION_DECLINED`, async () => {
      const before = mutationsSent().length;
      client.answers = [action];
      const result = await client.call('graphql_query', addReview());
      assert.equal(result.isError, true);
      assert.match(text(result), /^MUTATION_DECLINED: .*nothing was sent\. Do not retry it/);
      assert.equal(mutationsSent().length, before);
    });
  }

  test('MUST NOT ask about, nor send, a mutation without allowMutations', async () => {
    const before = mutationsSent().length;
    client.questions.length = 0;
    const result = await client.call('graphql_query', { query: ADD_REVIEW, variables: { id: 'b1' } });
    assert.match(text(result), /^MUTATION_NOT_ALLOWED: .*the user is then asked to confirm it/);
    assert.equal(client.questions.length, 0);
    assert.equal(mutationsSent().length, before);
  });

  test('MUST NOT ask about a query', async () => {
    client.questions.length = 0;
    const result = await client.call('graphql_query', { query: '{ books(first: 1) { title } }' });
    assert.notEqual(result.isError, true);
    assert.equal(client.questions.length, 0);
  });

  test('MUST NOT show a header value in a question, even one the variables repeat', async () => {
    client.questions.length = 0;
    client.answers = ['decline'];
    await client.call('graphql_query', addReview(`my token is ${TOKEN}`));
    assert.ok(!client.questions[0]!.includes('Conf1rm'), client.questions[0]);
    assert.match(client.questions[0]!, /\[redacted\]/);
  });

  for (const [what, value] of [
    ["the mutation's field name", 'addReview'],
    ["a variable's value", 'A fine book'],
    ['the whole document', ADD_REVIEW],
  ] as const) {
    test(`MUST NOT let a per-call header value hide the question: a value equal to ${what}`, async () => {
      client.questions.length = 0;
      client.answers = ['decline'];
      const before = mutationsSent().length;
      await client.call('graphql_query', { ...addReview('A fine book'), headers: { 'X-Trace': value } });
      const question = client.questions[0]!;
      assert.match(question, /addReview\(bookId: "b1", rating: 5, text: "A fine book"\)/);
      assert.ok(question.includes('Document as sent: mutation Add('), question);
      assert.ok(!question.includes('[redacted]'), question);
      assert.match(question, /^Headers this call adds: X-Trace \(values not shown\)$/m);
      assert.equal(mutationsSent().length, before);
    });
  }

  test('MUST name every root field of a long mutation, the last one too', async () => {
    client.questions.length = 0;
    client.answers = ['decline'];
    const praise = Array.from(
      { length: 12 },
      (_, i) =>
        `a${i}: addReview(bookId: "b1", rating: 5, text: "${'A long review of a good book. '.repeat(4)}") { rating }`,
    );
    const query = `mutation { ${praise.join(' ')} sneaky: addReview(bookId: "b2", rating: 1) { rating } }`;
    await client.call('graphql_query', { query, allowMutations: true });
    assert.match(client.questions[0]!, /^ {2}sneaky: addReview\(bookId: "b2", rating: 1\)$/m);
  });

  test('asks about a curated mutation, and runs one its author marked as needing no question', async () => {
    client.questions.length = 0;
    const before = mutationsSent().length;
    client.answers = ['decline'];
    const praised = await client.call('Praise', { id: 'b1' });
    assert.match(text(praised), /^MUTATION_DECLINED: /);
    assert.equal(client.questions.length, 1);
    const panned = await client.call('Pan', { id: 'b1' });
    assert.notEqual(panned.isError, true, text(panned));
    assert.equal(client.questions.length, 1, 'no question for Pan');
    assert.equal(mutationsSent().length, before + 1);
  });
}

describe('a 2025-era client (SDK v1) that can ask, over stdio', () => {
  aPersonDecides(() => clientV1([`--operations=${dir}`]));
});

describe('a 2026-07-28 client (SDK v2) that can ask, over stdio', () => {
  aPersonDecides(() => clientV2([`--operations=${dir}`]));
});

describe('a 2025-era client (SDK v1) that can ask, over HTTP (remote mode): asked on the stream of its call', () => {
  let remote: HttpMcpProcess;
  before(async () => {
    remote = await startHttpMcp([
      `--endpoint=${api.url}`,
      `--headers={"Authorization":"${TOKEN}"}`,
      `--operations=${dir}`,
    ]);
  });
  after(() => remote?.stop());
  aPersonDecides(() => clientV1([], true, remote.url));
});

describe('a 2026-07-28 client (SDK v2) that can ask, over HTTP (remote mode)', () => {
  let remote: HttpMcpProcess;
  before(async () => {
    remote = await startHttpMcp([
      `--endpoint=${api.url}`,
      `--headers={"Authorization":"${TOKEN}"}`,
      `--operations=${dir}`,
    ]);
  });
  after(() => remote?.stop());
  aPersonDecides(() => clientV2([], true, remote.url));
});

describe('no answer', () => {
  test('MUST decline a mutation the 2025-era user does not answer within --confirmTimeout', async () => {
    const client = await clientV1(['--confirmTimeout=1']);
    try {
      const before = mutationsSent().length;
      client.answers = ['never'];
      const started = Date.now();
      const result = await client.call('graphql_query', addReview());
      assert.match(
        text(result),
        /^MUTATION_DECLINED: the user did not answer within 1 s \(--confirmTimeout\)/,
      );
      assert.ok(Date.now() - started < 10_000);
      assert.equal(mutationsSent().length, before);
    } finally {
      await client.close();
    }
  });
});

describe('clients that cannot ask', () => {
  for (const era of ['2025', '2026'] as const) {
    test(`a ${era}-era client without elicitation: allowMutations decides, and the result says nobody was asked`, async () => {
      const client = era === '2025' ? await clientV1([], false) : await clientV2([], false);
      try {
        const before = mutationsSent().length;
        const result = await client.call('graphql_query', addReview());
        assert.notEqual(result.isError, true, text(result));
        assert.match(
          result.content.map((item) => item.text).join('\n'),
          era === '2025'
            ? /ran without asking the user: this client did not declare elicitation .* when it connected\. Under --mutations=confirm, allowMutations decided\./
            : /ran without asking the user: this request's client capabilities do not include elicitation\./,
        );
        assert.equal(mutationsSent().length, before + 1);
      } finally {
        await client.close();
      }
    });

    test(`MUST refuse a ${era}-era client without elicitation under --mutations=require-confirm, naming the option`, async () => {
      const extra = ['--mutations=require-confirm'];
      const client = era === '2025' ? await clientV1(extra, false) : await clientV2(extra, false);
      try {
        const before = mutationsSent().length;
        const result = await client.call('graphql_query', addReview());
        assert.match(
          text(result),
          /^MUTATION_NOT_ALLOWED: .*--mutations=require-confirm.*nobody can be asked here: /,
        );
        assert.equal(mutationsSent().length, before);
      } finally {
        await client.close();
      }
    });
  }

  test('a 2025-era client over HTTP that did not declare elicitation: allowMutations decides, and the result says why nobody was asked', async () => {
    const remote = await startHttpMcp([`--endpoint=${api.url}`]);
    const client = await clientV1([], false, remote.url);
    try {
      const before = mutationsSent().length;
      const result = await client.call('graphql_query', addReview());
      assert.notEqual(result.isError, true, text(result));
      assert.match(
        result.content.map((item) => item.text).join('\n'),
        /ran without asking the user: this client did not declare elicitation \(questions to its user\) when it initialized/,
      );
      assert.equal(mutationsSent().length, before + 1);
    } finally {
      await client.close();
      await remote.stop();
    }
  });

  test('--mutations=allow never asks', async () => {
    const client = await clientV1(['--mutations=allow']);
    try {
      const result = await client.call('graphql_query', addReview());
      assert.notEqual(result.isError, true, text(result));
      assert.equal(client.questions.length, 0);
      assert.equal(result.content.length, 1);
    } finally {
      await client.close();
    }
  });
});

/** A 2026-07-28 client that answers by hand (test/fixtures/modern-client.ts), over stdio or HTTP. */
function manualClient(target: {
  args?: readonly string[];
  /** The whole command line instead of stdioArgs(args). */
  argv?: readonly string[];
  url?: string;
  headers?: Record<string, string>;
}) {
  return modernClient(
    target.url !== undefined
      ? { url: target.url, headers: target.headers ?? {} }
      : { command: process.execPath, args: target.argv ?? stdioArgs(target.args ?? []) },
  );
}

describe('the state a 2026-07-28 answer carries', () => {
  let client: Awaited<ReturnType<typeof manualClient>>;
  before(async () => (client = await manualClient({})));
  after(() => client.close());

  test('MUST run an answered mutation once, and refuse the same answer replayed', async () => {
    const before = mutationsSent().length;
    const state = await client.ask(addReview());
    assert.equal(mutationsSent().length, before, 'nothing is sent while the user is asked');
    const first = await client.answer(addReview(), state);
    assert.notEqual(first.isError, true, text(first));
    const replayed = await client.answer(addReview(), state);
    assert.match(text(replayed), /^MUTATION_NOT_ALLOWED: the confirmation does not belong .*used already/);
    assert.equal(mutationsSent().length, before + 1);
  });

  test('MUST refuse an answer given for another call (other variables, another document)', async () => {
    const before = mutationsSent().length;
    const state = await client.ask(addReview('first text'));
    const altered = await client.answer(addReview('other text'), state);
    assert.match(text(altered), /^MUTATION_NOT_ALLOWED: .*given for another call/);
    const otherDocument = { ...addReview('first text'), query: ADD_REVIEW.replace('rating: 5', 'rating: 1') };
    assert.match(text(await client.answer(otherDocument, state)), /given for another call/);
    assert.equal(mutationsSent().length, before);
  });

  test('MUST refuse an answer whose retry adds or changes the per-call headers', async () => {
    const before = mutationsSent().length;
    const asked = { ...addReview(), headers: { 'X-Trace': 'trace-1' } };
    const state = await client.ask(asked);
    for (const headers of [
      { 'X-Trace': 'trace-2' },
      { 'X-Trace': 'trace-1', Authorization: 'Bearer attacker-token-1234' },
    ]) {
      const result = await client.answer({ ...asked, headers }, state);
      assert.match(text(result), /^MUTATION_NOT_ALLOWED: .*given for another call/);
    }
    assert.match(text(await client.answer(addReview(), state)), /given for another call/);
    assert.equal(mutationsSent().length, before);
  });

  test('MUST refuse a forged or altered state', async () => {
    const before = mutationsSent().length;
    const state = await client.ask(addReview());
    const [version, body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as { p: { n: string } };
    payload.p.n = 'another-nonce';
    const altered = `${version}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    for (const forged of [altered, 'v1.e30.AAAA', 'not a state at all']) {
      const result = await client.answer(addReview(), forged);
      assert.match(text(result), /^MUTATION_NOT_ALLOWED: .*altered or not minted by this server/, forged);
    }
    assert.equal(mutationsSent().length, before);
  });

  test('MUST refuse a state minted by another server (another key)', async () => {
    const other = await manualClient({});
    try {
      const before = mutationsSent().length;
      const state = await other.ask(addReview());
      const result = await client.answer(addReview(), state);
      assert.match(text(result), /altered or not minted by this server/);
      assert.equal(mutationsSent().length, before);
    } finally {
      await other.close();
    }
  });

  test('MUST NOT send a mutation declined on the retried call', async () => {
    const before = mutationsSent().length;
    const state = await client.ask(addReview());
    const result = await client.answer(addReview(), state, 'decline');
    assert.match(text(result), /^MUTATION_DECLINED: the user declined/);
    assert.equal(mutationsSent().length, before);
  });

  test('MUST decline an answer that comes after --confirmTimeout', async () => {
    const quick = await manualClient({ args: ['--confirmTimeout=1'] });
    try {
      const before = mutationsSent().length;
      const state = await quick.ask(addReview());
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const result = await quick.answer(addReview(), state);
      assert.match(text(result), /^MUTATION_DECLINED: the answer came after 1 s \(--confirmTimeout\)/);
      assert.equal(mutationsSent().length, before);
    } finally {
      await quick.close();
    }
  });
});

describe('the API an answer is bound to (a config file of two APIs)', () => {
  let client: Awaited<ReturnType<typeof manualClient>>;
  before(async () => {
    const config = join(dir, 'two-apis.json');
    writeFileSync(
      config,
      JSON.stringify({
        apis: {
          alpha: { endpoint: api.url, headers: { Authorization: 'Bearer alpha-token-0123456789' } },
          beta: { endpoint: api.url, headers: { Authorization: 'Bearer beta-token-0123456789' } },
        },
      }),
    );
    client = await manualClient({ argv: [CLI, `--config=${config}`] });
  });
  after(() => client?.close());

  test('the question names the API, and MUST refuse an answer whose retry names another API', async () => {
    const before = mutationsSent().length;
    const state = await client.ask({ ...addReview(), api: 'alpha' });
    assert.match(client.lastQuestion(), /^API: alpha$/m);
    const result = await client.answer({ ...addReview(), api: 'beta' }, state);
    assert.match(text(result), /^MUTATION_NOT_ALLOWED: .*given for another call/);
    assert.equal(mutationsSent().length, before);
    const accepted = await client.answer({ ...addReview(), api: 'alpha' }, state);
    assert.notEqual(accepted.isError, true, text(accepted));
    assert.equal(mutationsSent().at(-1)!.headers.authorization, 'Bearer alpha-token-0123456789');
  });
});

describe('replicas behind a load balancer (remote mode, stateless)', () => {
  const KEY = 'a-shared-state-key-of-32-characters-or-more';
  let replicas: HttpMcpProcess[] = [];
  before(async () => {
    replicas = await Promise.all([
      startHttpMcp([`--endpoint=${api.url}`, `--stateKey=${KEY}`]),
      startHttpMcp([`--endpoint=${api.url}`, `--stateKey=${KEY}`]),
      startHttpMcp([`--endpoint=${api.url}`]),
    ]);
  });
  after(() => Promise.all(replicas.map((replica) => replica.stop())));

  test('MUST refuse at a replica without the key a question another replica asked', async () => {
    const [a, c] = [
      await manualClient({ url: replicas[0]!.url }),
      await manualClient({ url: replicas[2]!.url }),
    ];
    try {
      const before = mutationsSent().length;
      const state = await a.ask(addReview());
      assert.match(text(await c.answer(addReview(), state)), /altered or not minted by this server/);
      assert.equal(mutationsSent().length, before);
    } finally {
      await a.close();
      await c.close();
    }
  });
});

describe('the user an answer is bound to (remote mode with OAuth)', () => {
  let issuer: TestIssuer;
  let remote: HttpMcpProcess;
  let audience: string;
  before(async () => {
    ({ issuer, remote, audience } = await startOAuthRemote([`--endpoint=${api.url}`]));
  });
  after(async () => {
    await remote?.stop();
    await issuer?.close();
  });

  const as = async (sub: string) =>
    manualClient({
      url: remote.url,
      headers: { authorization: `Bearer ${await issuer.sign({ sub, aud: audience, scope: 'mcp:use' })}` },
    });

  test("MUST refuse the answer of a client whose client_id is another user's sub", async () => {
    const alice = await as('alice');
    const impostor = await manualClient({
      url: remote.url,
      headers: {
        authorization: `Bearer ${await issuer.sign({ client_id: 'alice', aud: audience, scope: 'mcp:use' })}`,
      },
    });
    try {
      const before = mutationsSent().length;
      const state = await alice.ask(addReview());
      assert.match(text(await impostor.answer(addReview(), state)), /given for another call/);
      assert.equal(mutationsSent().length, before);
    } finally {
      await alice.close();
      await impostor.close();
    }
  });

  test("MUST refuse an answer given by another user (OAuth sub) than the one asked, and run the asked user's", async () => {
    const [alice, bob] = [await as('alice'), await as('bob')];
    try {
      const before = mutationsSent().length;
      const state = await alice.ask(addReview());
      assert.match(
        text(await bob.answer(addReview(), state)),
        /^MUTATION_NOT_ALLOWED: .*given for another call/,
      );
      assert.equal(mutationsSent().length, before);
      const result = await alice.answer(addReview(), state);
      assert.notEqual(result.isError, true, text(result));
      assert.equal(mutationsSent().length, before + 1);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
