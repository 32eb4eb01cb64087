// Remote mode asks the person, for the clients that ship today: a 2025-era client that declared elicitation is
// asked on the SSE stream of its tools/call, and answers with a POST that is accepted once, from the session and
// user that were asked. A hand-written client (test/fixtures/legacy-client.ts) reads the question's id off the
// stream and answers as others would; the API's own log proves what was sent.
import assert from 'node:assert/strict';
import { createServer as createNetServer, connect, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import type { TestIssuer } from '../fixtures/issuer.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';
import { startOAuthRemote } from '../fixtures/oauth-remote.ts';

const TOKEN = 'shared-token-0123456789abcdef';
const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 4, text: "secret words") { rating } }';
const add = { query: ADD, variables: { id: 'b1' }, allowMutations: true };

let api: RunningGraphQLServer;
before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
});
after(() => api?.close());

const mutationsSent = () => mutationsReceived(api);
const textOf = (response: Record<string, unknown>) =>
  ((response.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [])
    .map((item) => item.text)
    .join('\n');

describe('a 2025-era client over HTTP, asked on the stream of its call', () => {
  let remote: HttpMcpProcess;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  before(async () => {
    remote = await startHttpMcp([`--endpoint=${api.url}`, `--httpToken=${TOKEN}`]);
  });
  after(() => remote?.stop());

  test('MUST run an accepted mutation once: a second answer is 409 and an unknown id 404, and neither changes anything', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    const question = await call.question;
    assert.ok(question !== undefined, 'asked');
    assert.match(question.message, /addReview\(bookId: "b1", rating: 4, text: "secret words"\)/);
    assert.match(String(question.id), /^q-[\w-]{20,}$/, 'an unguessable id');
    assert.equal(mutationsSent(), before, 'nothing sent while the person thinks');
    assert.equal((await client.answer(question.id, 'accept')).status, 202);
    const response = await call.response;
    assert.deepEqual((response.result as { structuredContent?: unknown }).structuredContent, {
      data: { addReview: { rating: 4 } },
    });
    assert.equal((await client.answer(question.id, 'accept')).status, 409);
    assert.equal((await client.answer('q-no-such-question-000000', 'accept')).status, 404);
    assert.equal(mutationsSent(), before + 1);
  });

  for (const action of ['decline', 'cancel'] as const) {
    test(`MUST NOT send a mutation answered ${action}`, async () => {
      const client = await LegacyClient.connect(remote.url, { headers: bearer });
      const before = mutationsSent();
      const call = client.call('graphql_query', add);
      const question = (await call.question)!;
      assert.equal((await client.answer(question.id, action)).status, 202);
      assert.match(textOf(await call.response), /^MUTATION_DECLINED: /);
      assert.equal(mutationsSent(), before);
    });
  }

  test('MUST refuse an answer from another session (403): the question stays open for the one asked', async () => {
    const [asked, other] = [
      await LegacyClient.connect(remote.url, { headers: bearer }),
      await LegacyClient.connect(remote.url, { headers: bearer }),
    ];
    const before = mutationsSent();
    const call = asked.call('graphql_query', add);
    const question = (await call.question)!;
    const refused = await other.answer(question.id, 'accept');
    assert.equal(refused.status, 403, refused.body);
    assert.equal(mutationsSent(), before);
    assert.equal((await asked.answer(question.id, 'decline')).status, 202);
    assert.match(textOf(await call.response), /^MUTATION_DECLINED: /);
    assert.equal(mutationsSent(), before);
  });

  test('an answer without a session is refused (400)', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const call = client.call('graphql_query', add);
    const question = (await call.question)!;
    const refused = await client.answer(question.id, 'accept', { sessionId: '' });
    assert.equal(refused.status, 400, refused.body);
    await client.answer(question.id, 'decline');
    await call.response;
  });

  test('MUST NOT send a mutation whose client went away while asked; its late answer is 404', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const before = mutationsSent();
    const call = client.call('graphql_query', add);
    const question = (await call.question)!;
    call.abandon();
    await call.response.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await client.answer(question.id, 'accept')).status, 404);
    assert.equal(mutationsSent(), before);
  });

  test('a question nobody answers is withdrawn by its own id when the call gives up, and a late answer changes nothing', async () => {
    const quick = await startHttpMcp([`--endpoint=${api.url}`, '--confirmTimeout=1']);
    try {
      const client = await LegacyClient.connect(quick.url);
      const before = mutationsSent();
      const call = client.call('graphql_query', add);
      const question = (await call.question)!;
      const response = await call.response;
      assert.match(textOf(response), /^MUTATION_DECLINED: /);
      // The client's dialog closes: the cancellation names the question it was shown, not the SDK's own id.
      assert.deepEqual(call.cancelled(), [question.id]);
      assert.notEqual((await client.answer(question.id, 'accept')).status, 202);
      assert.equal(mutationsSent(), before);
    } finally {
      await quick.stop();
    }
  });

  test('writes one audit line per mutation decided: decision, sent, status, fields, and no value of it', async () => {
    const client = await LegacyClient.connect(remote.url, { headers: bearer });
    const call = client.call('graphql_query', add);
    await client.answer((await call.question)!.id, 'accept');
    await call.response;
    const audits = remote
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"audit":"mutation"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const last = audits.at(-1)!;
    assert.equal(last.decision, 'accepted');
    assert.equal(last.sent, true);
    assert.equal(last.status, 200);
    assert.deepEqual(last.fields, ['addReview']);
    assert.equal(last.operation, 'Add');
    assert.equal(last.api, 'default');
    assert.ok(audits.some((entry) => entry.decision === 'declined' && entry.sent === false));
    for (const entry of audits)
      assert.ok(!JSON.stringify(entry).includes('secret words'), 'no value of the call');
  });
});

describe('the answer of another user (OAuth)', () => {
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

  test("MUST refuse an answer from another user, even with the asked session's id (403)", async () => {
    const as = async (sub: string) => ({
      authorization: `Bearer ${await issuer.sign({ sub, aud: audience, scope: 'mcp:use' })}`,
    });
    const alice = await LegacyClient.connect(remote.url, { headers: await as('alice') });
    const before = mutationsSent();
    const call = alice.call('graphql_query', add);
    const question = (await call.question)!;
    const bob = await as('bob');
    assert.equal((await alice.answer(question.id, 'accept', { headers: bob })).status, 403);
    assert.equal(mutationsSent(), before);
    assert.equal((await alice.answer(question.id, 'accept')).status, 202);
    await call.response;
    assert.equal(mutationsSent(), before + 1);
  });
});

/**
 * A TCP proxy that closes a connection once nothing has crossed it for `idleMs`, as nginx does after its
 * proxy_read_timeout (60 s by default).
 */
async function idleProxy(target: string, idleMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const { hostname, port, pathname } = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let timer = setTimeout(cut, idleMs);
    function cut() {
      client.destroy();
      upstream.destroy();
    }
    const heard = () => {
      clearTimeout(timer);
      timer = setTimeout(cut, idleMs);
    };
    client.on('data', heard);
    upstream.on('data', heard);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', () => {
        clearTimeout(timer);
        sockets.delete(socket);
        cut();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}${pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('a person who takes longer than a proxy idles', () => {
  for (const [keepAlive, survives] of [
    [1, true],
    [30, false],
  ] as const) {
    test(
      survives
        ? 'the stream survives a wait longer than the idle timeout of a proxy in front, with keep-alive comments'
        : 'without keep-alive comments often enough, the proxy cuts the stream, and nothing is sent',
      async () => {
        const remote = await startHttpMcp([`--endpoint=${api.url}`, `--keepAlive=${keepAlive}`]);
        const proxy = await idleProxy(remote.url, 2_500);
        try {
          const client = await LegacyClient.connect(proxy.url);
          const before = mutationsSent();
          const call = client.call('graphql_query', add);
          // Settled as it comes: the proxy may cut the stream long before the answer.
          const outcome = call.response.then(
            (response) => ({ response }),
            (error: unknown) => ({ error }),
          );
          const question = (await call.question)!;
          await new Promise((resolve) => setTimeout(resolve, 4_000));
          await client.answer(question.id, 'accept');
          const settled = await outcome;
          if (survives) {
            assert.ok('response' in settled, String((settled as { error?: unknown }).error));
            assert.deepEqual((settled.response.result as { structuredContent?: unknown }).structuredContent, {
              data: { addReview: { rating: 4 } },
            });
            assert.ok(call.comments() >= 2, `${call.comments()} keep-alive comments`);
            assert.equal(mutationsSent(), before + 1);
          } else {
            assert.ok('error' in settled, 'the proxy cut the stream');
            assert.equal(mutationsSent(), before);
          }
        } finally {
          await proxy.close();
          await remote.stop();
        }
      },
    );
  }
});
