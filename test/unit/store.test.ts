import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MemoryStore } from '../../src/store/memory.ts';
import { openRedisStore, type RedisStoreOptions } from '../../src/store/redis.ts';
import { StoreUnavailable, type Answer, type HeldQuestion, type Store } from '../../src/store/store.ts';
import { eventually, sleep } from '../cluster/processes.ts';
import { REDIS_MISSING, startRedis, type RedisServer } from '../cluster/redis.ts';

// The shared store's contract (src/store/store.ts), for the store of one process (memory) and for the one replicas
// share (Redis): the same behaviours, then what only replicas meet (concurrency across instances, a holder gone,
// Redis stopped, frozen or restarted). Each Redis instance of a test is a "replica": its own connections, its own
// replica id, one real redis-server between them.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh id or key, so that tests sharing one Redis never meet. */
function unique(kind: string): string {
  return `${kind}-${randomBytes(12).toString('base64url')}`;
}

/** A claim of `key` under the store's epoch now. */
async function claim(store: Store, key: string, ttlSeconds: number) {
  return store.claimOnce(key, ttlSeconds, await store.epoch());
}

/** A question to hold, and the answers delivered to it. */
function question(asker = 'alice', ttlSeconds = 60): { held: HeldQuestion; delivered: Answer[] } {
  const delivered: Answer[] = [];
  return {
    held: { id: unique('q'), asker, ttlSeconds, deliver: (answer) => delivered.push(answer) },
    delivered,
  };
}

/** Two replicas of one deployment (for memory, the same store: one process) and a way to let time pass. */
interface Replicas {
  readonly a: Store;
  readonly b: Store;
  advance(ms: number): Promise<void>;
}

/** The behaviours every store has. */
function everyStore(replicas: () => Replicas): void {
  test('claimOnce is first the first time on any replica, and used after', async () => {
    const { a, b } = replicas();
    const key = unique('nonce');
    assert.equal(await claim(a, key, 60), 'first');
    assert.equal(await claim(b, key, 60), 'used');
    assert.equal(await claim(a, key, 60), 'used');
  });

  test('MUST refuse a claim made under another epoch (stale), and mark nothing by it', async () => {
    const { a, b } = replicas();
    const key = unique('nonce');
    assert.equal(await a.claimOnce(key, 60, 'an-epoch-of-before'), 'stale');
    assert.equal(await claim(b, key, 60), 'first');
    assert.equal(await a.claimOnce(key, 60, 'an-epoch-of-before'), 'stale');
  });

  test('the epoch stays the same while the store keeps its marks', async () => {
    const { a, b } = replicas();
    const epoch = await a.epoch();
    assert.equal(await b.epoch(), epoch);
    assert.equal(await a.epoch(), epoch);
  });

  test('claiming one key leaves other keys free', async () => {
    const { a, b } = replicas();
    assert.equal(await claim(a, unique('nonce'), 60), 'first');
    assert.equal(await claim(b, unique('nonce'), 60), 'first');
  });

  test('a claim expires after its ttl, and the key can be claimed again', async () => {
    const { a, b, advance } = replicas();
    const key = unique('nonce');
    assert.equal(await claim(a, key, 1), 'first');
    await advance(1_200);
    assert.equal(await claim(b, key, 1), 'first');
  });

  test('an answer received at one replica reaches the question held at another, once', async () => {
    const { a, b } = replicas();
    const { held, delivered } = question();
    await a.hold(held);
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'delivered');
    await eventually('the answer delivered', () => delivered.length > 0);
    await sleep(100);
    assert.deepEqual(delivered, [{ action: 'accept' }]);
  });

  test('a second answer to an answered question, at either replica, is answered and delivers nothing', async () => {
    const { a, b } = replicas();
    const { held, delivered } = question();
    await a.hold(held);
    assert.equal(await b.answer(held.id, 'alice', { action: 'decline' }), 'delivered');
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'answered');
    assert.equal(await a.answer(held.id, 'alice', { action: 'accept' }), 'answered');
    await sleep(100);
    assert.deepEqual(delivered, [{ action: 'decline' }]);
  });

  test('an answer from another asker is not-yours and leaves the question to its asker', async () => {
    const { a, b } = replicas();
    const { held, delivered } = question('alice');
    await a.hold(held);
    assert.equal(await b.answer(held.id, 'mallory', { action: 'accept' }), 'not-yours');
    assert.equal(await a.answer(held.id, 'mallory', { action: 'accept' }), 'not-yours');
    assert.deepEqual(delivered, []);
    assert.equal(await b.answer(held.id, 'alice', { action: 'decline' }), 'delivered');
    await eventually('the answer delivered', () => delivered.length > 0);
    assert.deepEqual(delivered, [{ action: 'decline' }]);
  });

  test('an answer to an id never held is unknown', async () => {
    const { b } = replicas();
    assert.equal(await b.answer(unique('q'), 'alice', { action: 'accept' }), 'unknown');
  });

  test('an answer to a released question is unknown and delivers nothing', async () => {
    const { a, b } = replicas();
    const { held, delivered } = question();
    await a.hold(held);
    await a.release(held.id);
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'unknown');
    await sleep(100);
    assert.deepEqual(delivered, []);
  });

  test('a question expires after its ttl: its answer is unknown and delivers nothing', async () => {
    const { a, b, advance } = replicas();
    const { held, delivered } = question('alice', 1);
    await a.hold(held);
    await advance(1_200);
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'unknown');
    await sleep(100);
    assert.deepEqual(delivered, []);
  });

  test("only the answer's action, or the client's error, reaches the question", async () => {
    const { a, b } = replicas();
    const accepted = question();
    const failed = question();
    await a.hold(accepted.held);
    await a.hold(failed.held);
    const withMore = { action: 'accept', content: { token: 'secret' } } as Answer;
    assert.equal(await b.answer(accepted.held.id, 'alice', withMore), 'delivered');
    assert.equal(
      await b.answer(failed.held.id, 'alice', { error: 'the user closed the dialog' }),
      'delivered',
    );
    await eventually(
      'both answers delivered',
      () => accepted.delivered.length + failed.delivered.length === 2,
    );
    assert.deepEqual(accepted.delivered, [{ action: 'accept' }]);
    assert.deepEqual(failed.delivered, [{ error: 'the user closed the dialog' }]);
  });

  test('status says the store is reachable', () => {
    assert.equal(replicas().a.status().reachable, true);
  });
}

describe('the memory store', () => {
  let now = 1_000_000;
  const store = new MemoryStore({ now: () => now });
  everyStore(() => ({
    a: store,
    b: store,
    advance: async (ms) => {
      now += ms;
    },
  }));

  test('MUST NOT honour in one process what another minted: two memory stores have two epochs', async () => {
    const one = new MemoryStore();
    const other = new MemoryStore();
    assert.notEqual(await one.epoch(), await other.epoch());
    assert.equal(await other.claimOnce(unique('nonce'), 60, await one.epoch()), 'stale');
  });

  test('expired marks and questions are dropped, so that memory stays bounded', async () => {
    const bounded = new MemoryStore({ now: () => now });
    for (let i = 0; i < 1_000; i++) {
      await claim(bounded, `nonce-${i}`, 1);
      await bounded.hold(question('alice', 1).held);
    }
    assert.equal(bounded.size, 2_000);
    now += 2_000;
    await claim(bounded, 'one-more', 1);
    assert.equal(bounded.size, 1);
  });

  test('says what it is', () => {
    assert.deepEqual(store.status(), { reachable: true, description: 'memory' });
  });
});

describe('the Redis store', { skip: REDIS_MISSING }, () => {
  let redis: RedisServer;
  const opened: Store[] = [];
  let a: Store;
  let b: Store;
  const open = async (url: string, options?: RedisStoreOptions) => {
    const store = await openRedisStore(url, options);
    opened.push(store);
    return store;
  };

  before(async () => {
    redis = await startRedis({ extraArgs: ['--user', 'alice', 'on', '>s3cret-pw', '~*', '&*', '+@all'] });
    a = await open(redis.url);
    b = await open(redis.url);
  });
  after(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await redis?.dispose();
  });

  everyStore(() => ({ a, b, advance: sleep }));

  test('a question whose replica has gone is asker-gone, for every later answer too', async () => {
    const holder = await open(redis.url);
    const { held, delivered } = question();
    await holder.hold(held);
    await holder.close();
    await sleep(200);
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'asker-gone');
    assert.equal(await a.answer(held.id, 'alice', { action: 'accept' }), 'asker-gone');
    assert.deepEqual(delivered, []);
  });

  test('of many answers to one question from three replicas at once, exactly one is delivered', async () => {
    const c = await open(redis.url);
    const { held, delivered } = question();
    await a.hold(held);
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        [a, b, c][i % 3]!.answer(held.id, 'alice', { action: i % 2 === 0 ? 'accept' : 'decline' }),
      ),
    );
    assert.equal(outcomes.filter((outcome) => outcome === 'delivered').length, 1);
    assert.equal(outcomes.filter((outcome) => outcome === 'answered').length, 59);
    await eventually('the answer delivered', () => delivered.length > 0);
    await sleep(200);
    assert.equal(delivered.length, 1);
  });

  test('of many claims of one key from three replicas at once, exactly one is first', async () => {
    const c = await open(redis.url);
    const key = unique('nonce');
    const claims = await Promise.all(Array.from({ length: 60 }, (_, i) => claim([a, b, c][i % 3]!, key, 60)));
    assert.equal(claims.filter((claimed) => claimed === 'first').length, 1);
  });

  test('credentials in the URL are used, and the description leaves them out', async () => {
    const store = await open(redis.url.replace('redis://', 'redis://alice:s3cret-pw@'));
    assert.equal(await claim(store, unique('nonce'), 60), 'first');
    assert.deepEqual(store.status(), { reachable: true, description: `redis://127.0.0.1:${redis.port}/0` });
  });

  test('a wrong password refuses every operation with a StoreUnavailable that names no credential', async () => {
    const store = await open(redis.url.replace('redis://', 'redis://alice:wr0ng-pw@'));
    const refusal = await claim(store, unique('nonce'), 60).then(
      () => assert.fail('claimed with a wrong password'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof StoreUnavailable, String(refusal));
    assert.match(refusal.message, new RegExp(`redis://127\\.0\\.0\\.1:${redis.port}/0`));
    assert.match(refusal.message, /cannot be reached \(not connected: WRONGPASS/);
    assert.doesNotMatch(refusal.message, /wr0ng/);
    assert.equal(store.status().reachable, false);
    assert.doesNotMatch(store.status().description, /wr0ng|alice/);
  });

  test("the URL's database number keeps its marks apart from another database's", async () => {
    const db3 = await open(redis.url.replace(/\/0$/, '/3'));
    const key = unique('nonce');
    assert.equal(db3.status().description, `redis://127.0.0.1:${redis.port}/3`);
    assert.equal(await claim(db3, key, 60), 'first');
    assert.equal(await claim(a, key, 60), 'first');
    assert.equal(await claim(db3, key, 60), 'used');
  });

  test('a closed store lets its process exit at once', async () => {
    const script = `
      const { openRedisStore } = await import(${JSON.stringify(pathToFileURL(join(root, 'src/store/redis.ts')).href)});
      const store = await openRedisStore(process.env.STORE_URL);
      await store.hold({ id: 'q-exit-${randomBytes(6).toString('hex')}', asker: 'alice', ttlSeconds: 60, deliver() {} });
      await store.close();
      process.stderr.write('closed\\n');
    `;
    const run = await runNode(script, { STORE_URL: redis.url });
    assert.equal(run.code, 0, run.output);
    // Something of the store left open would hold the process until runNode kills it (code null); it exits in
    // tens of ms, and this bound holds on a loaded machine too.
    assert.ok(run.exitAfterClosedMs !== undefined && run.exitAfterClosedMs < 10_000, run.output);
  });
});

describe('the Redis store when Redis fails', { skip: REDIS_MISSING }, () => {
  let redis: RedisServer;
  const opened: Store[] = [];
  const open = async (options?: RedisStoreOptions) => {
    const store = await openRedisStore(redis.url, options);
    opened.push(store);
    return store;
  };
  /** Redis running again, whatever the test did to it. */
  const restore = async () => {
    if (redis.running()) redis.thaw();
    else await redis.start();
  };

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await redis?.dispose();
  });

  test('while Redis is stopped, every operation is refused without waiting for it, and status says so', async (t) => {
    t.after(restore);
    const store = await open();
    const { held } = question();
    await store.hold(held);
    await redis.stop();
    await assertRefusedPromptly(store, held.id);
    assert.equal(store.status().reachable, false);
  });

  test('a frozen Redis (it answers nothing) gets every operation refused at its deadline, not waiting for it', async (t) => {
    t.after(restore);
    const store = await open();
    const { held } = question();
    await store.hold(held);
    redis.freeze();
    await assertRefusedPromptly(store, held.id);
    assert.equal(store.status().reachable, false);
  });

  test('status follows Redis by itself: unreachable while it answers nothing, reachable once it answers again', async (t) => {
    t.after(restore);
    const store = await open({ checkIntervalMs: 200 });
    assert.equal(store.status().reachable, true);
    redis.freeze();
    await eventually('status says unreachable', () => !store.status().reachable);
    redis.thaw();
    await eventually('status says reachable', () => store.status().reachable);
  });

  test('MUST refuse after Redis restarts without persistence what was minted before: the epoch is another', async (t) => {
    t.after(restore);
    const [a, b] = [await open(), await open()];
    const before = await a.epoch();
    const key = unique('nonce');
    await redis.stop();
    await redis.start();
    await eventually('the stores reconnect', () => a.status().reachable && b.status().reachable, 5_000);
    // The marks are gone with the data: the same key could be marked again, were it not for the epoch.
    assert.equal(await b.claimOnce(key, 60, before), 'stale');
    assert.notEqual(await b.epoch(), before);
    assert.equal(await a.epoch(), await b.epoch());
    assert.equal(await a.claimOnce(key, 60, before), 'stale');
  });

  test('a question waiting when Redis goes away ends at once with the answer lost, not at its timeout', async (t) => {
    t.after(restore);
    const store = await open();
    const { held, delivered } = question('alice', 600);
    await store.hold(held);
    await redis.stop();
    await eventually('the waiting question is told', () => delivered.length === 1, 3_000);
    assert.match((delivered[0] as { lost?: string }).lost ?? '', /went away while the question waited/);
  });

  test('a command sent to a frozen Redis is refused as uncertain (it may yet be done), one to a stopped Redis as not done', async (t) => {
    t.after(restore);
    const store = await open();
    const epoch = await store.epoch();
    redis.freeze();
    const frozen = await store.claimOnce(unique('nonce'), 60, epoch).catch((error: unknown) => error);
    assert.ok(frozen instanceof StoreUnavailable);
    assert.equal(frozen.uncertain, true);
    redis.thaw();
    await redis.stop();
    await eventually('the store sees Redis gone', () => !store.status().reachable, 3_000);
    const stopped = await store.claimOnce(unique('nonce'), 60, epoch).catch((error: unknown) => error);
    assert.ok(stopped instanceof StoreUnavailable);
    assert.equal(stopped.uncertain, false);
  });

  test('release never rejects, even while Redis is stopped', async (t) => {
    t.after(restore);
    const store = await open();
    const { held } = question();
    await store.hold(held);
    await redis.stop();
    await store.release(held.id);
  });

  test('once Redis is back, the same stores work again: claims, and answers across replicas', async () => {
    const statuses: boolean[] = [];
    const a = await open({ onStatusChange: ({ reachable }) => statuses.push(reachable) });
    const b = await open();
    await redis.stop();
    await assert.rejects(claim(a, unique('nonce'), 60), StoreUnavailable);
    await redis.start();
    await eventually('both stores reachable again', () => a.status().reachable && b.status().reachable);
    assert.equal(await claim(a, unique('nonce'), 60), 'first');
    const { held, delivered } = question();
    await a.hold(held);
    assert.equal(await b.answer(held.id, 'alice', { action: 'accept' }), 'delivered');
    await eventually('the answer delivered', () => delivered.length > 0);
    assert.deepEqual(delivered, [{ action: 'accept' }]);
    assert.deepEqual(statuses, [true, false, true]);
  });

  test('a store opened while Redis is down opens without waiting for it, refuses, and works once Redis starts', async (t) => {
    t.after(restore);
    await redis.stop();
    const started = performance.now();
    const store = await open();
    // Its command deadline (1 s) bounds the wait; one that waited for Redis would not open until it starts.
    assert.ok(performance.now() - started < 10_000, 'opened without waiting for Redis');
    assert.equal(store.status().reachable, false);
    await assert.rejects(claim(store, unique('nonce'), 60), StoreUnavailable);
    await redis.start();
    await eventually('the store reachable', () => store.status().reachable);
    assert.equal(await claim(store, unique('nonce'), 60), 'first');
  });
});

describe('the Redis store over TLS (rediss://)', { skip: REDIS_MISSING }, () => {
  const cert = join(root, 'test/fixtures/tls/localhost.crt');
  let redis: RedisServer;
  let store: Store | undefined;

  before(async () => {
    redis = await startRedis({ tls: { cert, key: join(root, 'test/fixtures/tls/localhost.key') } });
  });
  after(async () => {
    await store?.close();
    await redis?.dispose();
  });

  test('refuses a server whose certificate it does not trust', async () => {
    store = await openRedisStore(redis.url);
    assert.equal(store.status().reachable, false);
    await assert.rejects(claim(store, unique('nonce'), 60), StoreUnavailable);
  });

  test('works with a server whose certificate it trusts (NODE_EXTRA_CA_CERTS)', async () => {
    const script = `
      const { openRedisStore } = await import(${JSON.stringify(pathToFileURL(join(root, 'src/store/redis.ts')).href)});
      const store = await openRedisStore(process.env.STORE_URL);
      const epoch = await store.epoch();
      const claims = [await store.claimOnce('tls-nonce', 60, epoch), await store.claimOnce('tls-nonce', 60, epoch)];
      process.stdout.write(JSON.stringify({ claims, status: store.status() }));
      await store.close();
    `;
    const run = await runNode(script, { STORE_URL: redis.url, NODE_EXTRA_CA_CERTS: cert });
    assert.equal(run.code, 0, run.output);
    assert.deepEqual(JSON.parse(run.stdout), {
      claims: ['first', 'used'],
      status: { reachable: true, description: `rediss://127.0.0.1:${redis.port}/0` },
    });
  });
});

/**
 * claimOnce, hold and answer each reject with StoreUnavailable, each at its deadline (1 s) at most: not waiting
 * for Redis, which is down or frozen until the test ends. The bound is many times the deadline, for a loaded
 * machine.
 */
async function assertRefusedPromptly(store: Store, heldId: string): Promise<void> {
  const operations: Array<[string, () => Promise<unknown>]> = [
    ['claimOnce', () => claim(store, unique('nonce'), 60)],
    ['hold', () => store.hold(question().held)],
    ['answer', () => store.answer(heldId, 'alice', { action: 'accept' })],
  ];
  for (const [name, operation] of operations) {
    const started = performance.now();
    const error = await operation().then(
      () => assert.fail(`${name} succeeded without Redis`),
      (error: unknown) => error,
    );
    const ms = performance.now() - started;
    assert.ok(error instanceof StoreUnavailable, `${name}: ${String(error)}`);
    assert.match(error.message, /cannot be reached/);
    assert.ok(ms < 10_000, `${name} was refused after ${Math.round(ms)} ms`);
  }
}

/** Runs an ES module script with tsx in a child process of its own; times its exit after it printed "closed". */
function runNode(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; output: string; exitAfterClosedMs?: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let output = '';
    let closedAt: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (closedAt === undefined && output.includes('closed\n')) closedAt = performance.now();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const exitAfterClosedMs = closedAt === undefined ? undefined : performance.now() - closedAt;
      resolve({ code, stdout, output, ...(exitAfterClosedMs !== undefined && { exitAfterClosedMs }) });
    });
  });
}
