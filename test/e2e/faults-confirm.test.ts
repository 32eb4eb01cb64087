// Under faults, remote mode tells the truth and runs a mutation once: an accepted 2026 answer replayed at another
// process sharing --stateKey, or after Redis restarted without persistence, runs nothing; an answer sent while
// Redis is frozen is told it may still be taken (and then it is, as the API's log shows); a question whose store
// goes away ends the call at once; one user cannot hold every place with questions; a malformed answer is
// refused. The built server, real clients, a real redis-server (test/cluster/redis.ts), and the API's own log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { sleep } from '../cluster/processes.ts';
import { REDIS_MISSING, startRedis, type RedisServer } from '../cluster/redis.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { modernClient, type ModernResult } from '../fixtures/modern-client.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';

const STATE_KEY = 'a-state-key-shared-by-replicas-0123456789abcdef';
const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 5, text: "faults") { rating } }';
const add = { query: ADD, variables: { id: 'b1' }, allowMutations: true };

let api: RunningGraphQLServer;
before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
});
after(() => api?.close());

/** Waits until `condition` holds (it may be asynchronous), at most `timeoutMs`. */
async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

const mutationsSent = () => mutationsReceived(api);
const text = (result: ModernResult) => result.content.map((item) => item.text ?? '').join('\n');
const textOf = (response: Record<string, unknown>) =>
  ((response.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [])
    .map((item) => item.text)
    .join('\n');
/** The audit lines a process wrote on stderr. */
const audits = (remote: HttpMcpProcess) =>
  remote
    .stderr()
    .split('\n')
    .filter((line) => line.includes('"audit":"mutation"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('--stateKey without --store: an answer is honoured only by the process that asked', () => {
  const replicas: HttpMcpProcess[] = [];
  before(async () => {
    for (let i = 0; i < 2; i++) {
      replicas.push(await startHttpMcp([`--endpoint=${api.url}`, `--stateKey=${STATE_KEY}`]));
    }
  });
  after(() => Promise.all(replicas.map((replica) => replica.stop())));

  test('MUST NOT run an accepted 2026 answer again when it is replayed at another replica or after a restart', async () => {
    const [a, b] = replicas as [HttpMcpProcess, HttpMcpProcess];
    const atA = await modernClient({ url: a.url });
    const atB = await modernClient({ url: b.url });
    try {
      const before = mutationsSent();
      const state = await atA.ask(add);
      const ran = await atA.answer(add, state);
      assert.notEqual(ran.isError, true, text(ran));
      assert.equal(mutationsSent(), before + 1);
      const replayed = await atB.answer(add, state);
      assert.match(
        text(replayed),
        /^MUTATION_NOT_ALLOWED: the confirmation does not belong to this mutation/,
      );
      assert.match(text(replayed), /restarted/);
      // The same process after a restart: its marks are gone, and so is the epoch it signed.
      await a.stop();
      replicas[0] = await startHttpMcp([`--endpoint=${api.url}`, `--stateKey=${STATE_KEY}`]);
      const restarted = await modernClient({ url: replicas[0].url });
      const again = await restarted.answer(add, state);
      await restarted.close();
      assert.match(text(again), /^MUTATION_NOT_ALLOWED: /);
      assert.equal(mutationsSent(), before + 1, 'the API got the mutation once');
    } finally {
      await atA.close().catch(() => undefined);
      await atB.close();
    }
  });
});

describe('remote mode with a per-user bound and answers that do not fit', () => {
  let remote: HttpMcpProcess;
  const TOKEN = 'bound-token-0123456789abcdef';
  const bearer = { authorization: `Bearer ${TOKEN}` };
  before(async () => {
    remote = await startHttpMcp([
      `--endpoint=${api.url}`,
      `--httpToken=${TOKEN}`,
      '--maxOpenQuestions=2',
      '--confirmTimeout=30',
    ]);
  });
  after(() => remote?.stop());

  test('MUST refuse a question beyond --maxOpenQuestions for one user, nothing sent, and ask again once one is answered', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const before = mutationsSent();
    const first = client.call('graphql_query', add);
    const second = client.call('graphql_query', add);
    const [q1, q2] = [await first.question, await second.question];
    assert.ok(q1 && q2, 'the first two are asked');
    const third = client.call('graphql_query', add);
    assert.equal(await third.question, undefined, 'the third is not asked');
    assert.match(
      textOf(await third.response),
      /^CONFIRMATION_UNAVAILABLE: this user already has 2 questions .*--maxOpenQuestions=2.*nothing was sent/,
    );
    await client.answer(q1.id, 'decline');
    await first.response;
    const fourth = client.call('graphql_query', add);
    const q4 = await fourth.question;
    assert.ok(q4, 'asked once a place is free');
    await client.answer(q2.id, 'decline');
    await client.answer(q4.id, 'decline');
    await Promise.all([second.response, fourth.response]);
    assert.equal(mutationsSent(), before);
  });

  test('MUST NOT take an answer that holds both a result and an error: 400, and the question stays open', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    const question = (await call.question)!;
    const both = await client.respond(question.id, {
      result: { action: 'accept', content: {} },
      error: { code: -32603, message: 'and also an error' },
    });
    assert.equal(both.status, 400, both.body);
    assert.match(both.body, /a result or an error, never both/);
    assert.equal(mutationsSent(), before);
    assert.equal((await client.answer(question.id, 'decline')).status, 202);
    assert.match(textOf(await call.response), /^MUTATION_DECLINED: /);
    assert.equal(mutationsSent(), before);
  });

  test('a client that offers only URL-mode elicitation is told so, not that it declared none', async () => {
    const client = await LegacyClient.connect(remote.url, {
      headers: bearer,
      capabilities: { elicitation: { url: {} } },
    });
    const response = await client.call('graphql_query', add).response;
    assert.match(textOf(response), /offers only URL-mode elicitation/);
  });

  test('a question whose call goes away has an audit line (abandoned, nothing sent)', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    await call.question;
    call.response.catch(() => undefined);
    call.abandon();
    await until('the abandoned question is audited', () =>
      audits(remote).some((line) => line.decision === 'abandoned' && line.sent === false),
    );
    assert.equal(mutationsSent(), before);
  });
});

describe('remote mode with Redis under faults', { skip: REDIS_MISSING }, () => {
  let redis: RedisServer;
  let remote: HttpMcpProcess;
  before(async () => {
    redis = await startRedis();
    remote = await startHttpMcp([
      `--endpoint=${api.url}`,
      `--stateKey=${STATE_KEY}`,
      `--store=${redis.url}`,
      '--confirmTimeout=60',
    ]);
  });
  after(async () => {
    await remote?.stop();
    await redis?.dispose();
  });
  /** Redis running again, whatever the test did to it. */
  const restore = async () => {
    if (redis.running()) redis.thaw();
    else await redis.start();
    // /health answers 200 whatever the store's state (queries still run); its body says whether the store,
    // its subscriber for answers included, is reachable again.
    await until(
      'the store is back',
      async () => {
        const health = await fetch(remote.url.replace(/\/mcp$/, '/health'));
        const body = (await health.json()) as { store?: { state?: string } };
        return body.store?.state === 'reachable';
      },
      15_000,
    );
  };

  test('MUST NOT run an accepted 2026 answer again after Redis restarts without persistence', async (t) => {
    t.after(restore);
    const client = await modernClient({ url: remote.url });
    try {
      const before = mutationsSent();
      const state = await client.ask(add);
      assert.notEqual((await client.answer(add, state)).isError, true);
      assert.equal(mutationsSent(), before + 1);
      await redis.stop();
      await redis.start();
      // The store reconnects; its marks are gone with Redis's data.
      let replayed: ModernResult | undefined;
      await until(
        'the replay is answered by a store that is back',
        async () => {
          replayed = await client.answer(add, state);
          return !/CONFIRMATION_UNAVAILABLE/.test(text(replayed));
        },
        5_000,
      );
      assert.match(text(replayed!), /^MUTATION_NOT_ALLOWED: .*restarted/);
      assert.equal(mutationsSent(), before + 1, 'the API got the mutation once');
    } finally {
      await client.close();
    }
  });

  test('an answer sent while Redis is frozen is told it may still be taken, and the API log agrees once Redis answers', async (t) => {
    t.after(restore);
    const client = await LegacyClient.connect(remote.url);
    // One answer first, as in a deployment that has been answering: Redis holds the answer's script by then.
    const warm = client.call('graphql_query', add);
    await client.answer((await warm.question)!.id, 'decline');
    await warm.response;
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    const question = (await call.question)!;
    redis.freeze();
    const answered = await client.answer(question.id, 'accept');
    assert.equal(answered.status, 503, answered.body);
    assert.match(answered.body, /may still be taken/);
    assert.doesNotMatch(answered.body, /nothing was sent/);
    await sleep(2_000);
    redis.thaw();
    // Taken once Redis answered: the call ran its mutation, and says so.
    const response = await call.response;
    assert.deepEqual(
      (response.result as { structuredContent?: unknown }).structuredContent,
      {
        data: { addReview: { rating: 5 } },
      },
      JSON.stringify(response).slice(0, 500),
    );
    assert.equal(mutationsSent(), before + 1);
  });

  test('a question whose store goes away ends its call at once with CONFIRMATION_UNAVAILABLE, nothing sent, and an audit line', async (t) => {
    t.after(restore);
    const client = await LegacyClient.connect(remote.url);
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    await call.question;
    const stopped = performance.now();
    await redis.stop();
    const response = await call.response;
    // Well before --confirmTimeout (60 s): the question ended with its store, not at its timeout.
    assert.ok(performance.now() - stopped < 30_000);
    assert.match(textOf(response), /^CONFIRMATION_UNAVAILABLE: .*went away while the question waited/);
    assert.equal(mutationsSent(), before);
    assert.ok(audits(remote).some((line) => line.decision === 'refused' && line.sent === false));
  });

  test('a 2026 client is refused before it is asked while the store cannot take its answer', async (t) => {
    t.after(restore);
    const client = await modernClient({ url: remote.url });
    try {
      await redis.stop();
      const before = mutationsSent();
      const result = await client.call(add);
      assert.notEqual(result.resultType, 'input_required', 'not asked');
      assert.match(text(result), /^CONFIRMATION_UNAVAILABLE: /);
      assert.equal(mutationsSent(), before);
    } finally {
      await client.close();
    }
  });
});
