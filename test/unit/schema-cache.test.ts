import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SchemaCache } from '../../src/schema/cache.ts';

/** A cache on a clock the test moves. */
function cacheWithClock(ttlMs: number, maxEntries?: number) {
  let now = 0;
  const cache = new SchemaCache<string>({ ttlMs, maxEntries, now: () => now });
  return { cache, advance: (ms: number) => (now += ms) };
}

/** A load that counts its calls and answers `value`. */
function counting(value = 'schema') {
  let calls = 0;
  return {
    load: async () => {
      calls++;
      return `${value} #${calls}`;
    },
    calls: () => calls,
  };
}

/** A load that waits until the test settles it. */
function deferred() {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  let signal: AbortSignal | undefined;
  let calls = 0;
  return {
    load: (loadSignal: AbortSignal) => {
      calls++;
      signal = loadSignal;
      return new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
    },
    resolve: (value: string) => resolve(value),
    reject: (error: Error) => reject(error),
    signal: () => signal,
    calls: () => calls,
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SchemaCache keeps loaded values', () => {
  test('a second get within the TTL reuses the value without loading again', async () => {
    const { cache } = cacheWithClock(1_000);
    const { load, calls } = counting();
    assert.equal(await cache.get('k', load), 'schema #1');
    assert.equal(await cache.get('k', load), 'schema #1');
    assert.equal(calls(), 1);
  });

  test('a get after the TTL loads again', async () => {
    const { cache, advance } = cacheWithClock(1_000);
    const { load } = counting();
    await cache.get('k', load);
    advance(1_000);
    assert.equal(await cache.get('k', load), 'schema #2');
  });

  test('a TTL of 0 loads on every get', async () => {
    const { cache } = cacheWithClock(0);
    const { load, calls } = counting();
    await cache.get('k', load);
    await cache.get('k', load);
    assert.equal(calls(), 2);
    assert.equal(cache.size, 0);
  });

  test('different keys are loaded separately', async () => {
    const { cache } = cacheWithClock(1_000);
    assert.equal(await cache.get('a', counting('A').load), 'A #1');
    assert.equal(await cache.get('b', counting('B').load), 'B #1');
    assert.equal(await cache.get('a', counting('X').load), 'A #1');
  });

  test('keeps at most maxEntries values, dropping the least recently used', async () => {
    const { cache } = cacheWithClock(1_000, 2);
    await cache.get('a', counting('A').load);
    await cache.get('b', counting('B').load);
    await cache.get('a', counting('X').load); // a is now the most recently used
    await cache.get('c', counting('C').load);
    assert.equal(cache.size, 2);
    assert.equal(await cache.get('a', counting('X').load), 'A #1', 'a was kept');
    assert.equal(await cache.get('b', counting('B2').load), 'B2 #1', 'b was dropped');
  });

  test('delete forgets a value', async () => {
    const { cache } = cacheWithClock(1_000);
    await cache.get('k', counting('A').load);
    cache.delete('k');
    assert.equal(await cache.get('k', counting('B').load), 'B #1');
  });
});

describe('SchemaCache shares loads', () => {
  test('concurrent gets of one key share one load', async () => {
    const { cache } = cacheWithClock(1_000);
    const load = deferred();
    const first = cache.get('k', load.load);
    const second = cache.get('k', load.load);
    await tick();
    load.resolve('shared');
    assert.deepEqual(await Promise.all([first, second]), ['shared', 'shared']);
    assert.equal(load.calls(), 1);
  });

  test('concurrent gets share one load even with a TTL of 0', async () => {
    const { cache } = cacheWithClock(0);
    const load = deferred();
    const both = Promise.all([cache.get('k', load.load), cache.get('k', load.load)]);
    await tick();
    load.resolve('shared');
    assert.deepEqual(await both, ['shared', 'shared']);
    assert.equal(load.calls(), 1);
  });

  test('MUST NOT keep a failed load: the next get loads again', async () => {
    const { cache } = cacheWithClock(1_000);
    const failing = deferred();
    const first = cache.get('k', failing.load);
    await tick();
    failing.reject(new Error('endpoint down'));
    await assert.rejects(first, /endpoint down/);
    assert.equal(cache.size, 0);
    assert.equal(await cache.get('k', counting('ok').load), 'ok #1');
  });

  test('every concurrent caller of a failed load gets its error', async () => {
    const { cache } = cacheWithClock(1_000);
    const failing = deferred();
    const calls = [cache.get('k', failing.load), cache.get('k', failing.load)];
    await tick();
    failing.reject(new Error('boom'));
    for (const call of calls) await assert.rejects(call, /boom/);
  });

  test('a load that throws at once is a failed load', async () => {
    const { cache } = cacheWithClock(1_000);
    const load = () => {
      throw new Error('sync failure');
    };
    await assert.rejects(cache.get('k', load), /sync failure/);
    assert.equal(cache.loading, 0);
  });
});

describe('SchemaCache and callers that give up', () => {
  test('a caller whose signal aborts stops waiting at once, with the signal reason', async () => {
    const { cache } = cacheWithClock(1_000);
    const load = deferred();
    const controller = new AbortController();
    const waiting = cache.get('k', load.load, controller.signal);
    controller.abort(new Error('cancelled by client'));
    await assert.rejects(waiting, /cancelled by client/);
  });

  test('the load goes on while another caller still waits for it', async () => {
    const { cache } = cacheWithClock(1_000);
    const load = deferred();
    const controller = new AbortController();
    const leaving = cache.get('k', load.load, controller.signal);
    const staying = cache.get('k', load.load);
    await tick();
    controller.abort(new Error('gone'));
    await assert.rejects(leaving, /gone/);
    assert.equal(load.signal()?.aborted, false);
    load.resolve('done');
    assert.equal(await staying, 'done');
  });

  test('the load is aborted when every caller has given up, and the next get starts afresh', async () => {
    const { cache } = cacheWithClock(1_000);
    const load = deferred();
    const controller = new AbortController();
    const waiting = cache.get('k', load.load, controller.signal);
    await tick();
    controller.abort(new Error('gone'));
    await assert.rejects(waiting, /gone/);
    assert.equal(load.signal()?.aborted, true);
    assert.equal(cache.loading, 0);
    assert.equal(await cache.get('k', counting('fresh').load), 'fresh #1');
  });

  test('a caller whose signal has already aborted does not start a load', async () => {
    const { cache } = cacheWithClock(1_000);
    const { load, calls } = counting();
    await assert.rejects(cache.get('k', load, AbortSignal.abort(new Error('too late'))), /too late/);
    assert.equal(calls(), 0);
  });
});

describe('SchemaCache keys', () => {
  const endpoint = new URL('https://api.example.com/graphql');
  const cache = new SchemaCache<string>({ ttlMs: 1_000 });

  test('MUST NOT hold header values in clear', () => {
    const key = cache.keyOf(endpoint, [['Authorization', 'Bearer s3cret-token']]);
    assert.ok(!key.includes('s3cret'));
    assert.ok(!key.includes('Bearer'));
    assert.ok(!key.includes('example.com'));
  });

  test('differ for different credentials', () => {
    assert.notEqual(
      cache.keyOf(endpoint, [['Authorization', 'Bearer a']]),
      cache.keyOf(endpoint, [['Authorization', 'Bearer b']]),
    );
    assert.notEqual(cache.keyOf(endpoint, []), cache.keyOf(endpoint, [['Authorization', 'Bearer a']]));
  });

  test('differ for different endpoints, query strings included', () => {
    assert.notEqual(cache.keyOf(endpoint, []), cache.keyOf(new URL('https://api.example.com/other'), []));
    assert.notEqual(cache.keyOf(endpoint, []), cache.keyOf(new URL(`${endpoint.href}?key=1`), []));
  });

  test('are the same whatever the order and the case of the header names', () => {
    assert.equal(
      cache.keyOf(endpoint, [
        ['Authorization', 'Bearer a'],
        ['X-Org', '1'],
      ]),
      cache.keyOf(endpoint, [
        ['x-org', '1'],
        ['authorization', 'Bearer a'],
      ]),
    );
  });

  test('differ between two caches, whose secrets differ', () => {
    const other = new SchemaCache<string>({ ttlMs: 1_000 });
    assert.notEqual(cache.keyOf(endpoint, []), other.keyOf(endpoint, []));
  });
});
