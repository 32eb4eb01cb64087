// The GraphQL API the servers under test call: the demo library API, in the bench's process (the default,
// as the issue measures it: direct POSTs come from the same process) or, with --api-process, in its own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { serveGraphQL } from '../demo/graphql-server.ts';
import { createLibraryApi } from '../demo/library-api.ts';
import { track, untrack } from './processes.ts';

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
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/api-server.ts')], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  track(child.pid);
  let output = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.trim());
    });
    child.once('exit', (code) => reject(new Error(`the API process exited with ${code} before serving`)));
  });
  return {
    url,
    forget: () => child.kill('SIGUSR2'),
    close: async () => {
      const exited = once(child, 'exit');
      child.stdin.end();
      await exited;
      untrack(child.pid);
    },
  };
}
