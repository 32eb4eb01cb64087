// The GraphQL API the servers under test call: the demo library API, in the bench's process (the default,
// as the issue measures it: direct POSTs come from the same process) or, with --api-process, in its own.
import { serveGraphQL } from '../demo/graphql-server.ts';
import { createLibraryApi } from '../demo/library-api.ts';
import { startScript } from './processes.ts';

export interface Api {
  readonly url: string;
  /** Drops the requests the demo server keeps for the tests, which the bench has no use for. */
  forget(): void;
  close(): Promise<void>;
}

export async function startApi(root: string, ownProcess: boolean): Promise<Api> {
  if (!ownProcess) {
    const { schema, rootValue } = createLibraryApi();
    const server = await serveGraphQL(schema, rootValue);
    return { url: server.url, forget: () => (server.requests.length = 0), close: () => server.close() };
  }
  const api = await startScript(root, 'bench/api-server.ts');
  return { url: api.url, forget: () => process.kill(api.pid, 'SIGUSR2'), close: () => api.stop() };
}
