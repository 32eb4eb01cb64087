// The demo library API in a process of its own, for `--api-process`: started by the bench, it prints its
// endpoint on stdout, forgets the requests it has served on SIGUSR2 (the demo server keeps them for tests),
// and ends when its stdin closes, so that it cannot outlive the bench.
import { serveGraphQL } from '../demo/graphql-server.ts';
import { createLibraryApi } from '../demo/library-api.ts';

const { schema, rootValue } = createLibraryApi();
const api = await serveGraphQL(schema, rootValue);
process.on('SIGUSR2', () => (api.requests.length = 0));
process.stdin.on('close', () => void api.close().finally(() => process.exit(0)));
process.stdin.resume();
process.stdout.write(`${api.url}\n`);
