import { log } from '../common/log.js';
import { MemoryStore } from './memory.js';
import type { Store } from './store.js';

/**
 * The store of this process: Redis when --store names one (its client, a bundle of its own, loaded only then),
 * else memory. A Redis that becomes unreachable, or reachable again, is said on stderr.
 */
export async function openStore(url: URL | undefined): Promise<Store> {
  if (url === undefined) return new MemoryStore();
  const { openRedisStore } = await import('./redis.js');
  return openRedisStore(url.href, {
    onStatusChange: ({ reachable, description }) =>
      log(
        `graphql-mcp: the shared store ${description} is ${reachable ? 'reachable again' : 'unreachable: mutations that need it are refused until it is back'}`,
      ),
  });
}
