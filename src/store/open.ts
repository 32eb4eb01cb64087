import { MemoryStore } from './memory.js';
import type { Store } from './store.js';

/**
 * The store of this process: Redis when --store names one (its client, a bundle of its own, loaded only then),
 * else memory.
 */
export async function openStore(url: URL | undefined): Promise<Store> {
  if (url === undefined) return new MemoryStore();
  const { openRedisStore } = await import('./redis.js');
  return openRedisStore(url.href);
}
