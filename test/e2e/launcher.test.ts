// The bin's code cache (src/launcher.cjs): written once after a first start, used by the next starts, and never
// run when it is corrupt, stale or could have been written by anyone else; the server answers the same in every
// case. The cache's directory is the test's own (NODE_COMPILE_CACHE).
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createLibraryApi } from '../../demo/library-api.ts';
import { graphqlHandler, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp } from '../fixtures/mcp.ts';

/** How long a server may take to exit once its client has closed. */
const EXIT_TIMEOUT_MS = 10_000;

let api: FaultServer;
let endpoint: string;
let root: string;
let cacheDir: string;

before(async () => {
  api = await startFaultServer();
  const library = createLibraryApi();
  endpoint = api.route('/graphql', graphqlHandler(library.schema, library.rootValue));
  root = mkdtempSync(join(tmpdir(), 'graphql-mcp-launcher-'));
});
after(async () => {
  await api.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(join(root, 'cache'), { recursive: true, force: true });
  cacheDir = join(root, 'cache', 'graphql-mcp');
});

/** Starts the server, runs a query through it, and waits for it to exit after the client closes. */
async function startAndQuery(env: Record<string, string> = {}): Promise<void> {
  const session = await startMcp([`--endpoint=${endpoint}`], {
    NODE_COMPILE_CACHE: join(root, 'cache'),
    ...env,
  });
  const tools = await session.client.listTools();
  assert.ok(tools.tools.some((tool) => tool.name === 'graphql_query'));
  const result = await session.call('graphql_query', { query: '{ books { title } }' });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  assert.match(JSON.stringify(result.structuredContent), /"title"/);
  const pid = session.pid!;
  await session.close();
  const deadline = Date.now() + EXIT_TIMEOUT_MS;
  while (alive(pid)) {
    assert.ok(Date.now() < deadline, `the server (PID ${pid}) did not exit`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The cache file of this Node, and its inode (a new file each time the cache is written). */
function cacheFile(): { path: string; inode: number; mode: number } {
  const names = readdirSync(cacheDir).filter((name) => name.endsWith('.cache'));
  assert.equal(names.length, 1, `one cache file, found ${names.join(', ')}`);
  const path = join(cacheDir, names[0]!);
  assert.match(names[0]!, new RegExp(`^server-[0-9a-f]+-${process.version}-${process.arch}\\.cache$`));
  const stats = statSync(path);
  return { path, inode: stats.ino, mode: stats.mode & 0o777 };
}

describe("the bin's code cache", () => {
  test('is written after the first start, for this user only, and used as it is by the next', async () => {
    await startAndQuery();
    const first = cacheFile();
    assert.equal(first.mode, 0o600);
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
    // V8 refusing it, or the bin not reading it, would write it again.
    await startAndQuery();
    assert.equal(cacheFile().inode, first.inode);
  });

  test('is not run when its checksum does not hold, and is written again', async () => {
    await startAndQuery();
    const { path, inode } = cacheFile();
    const data = readFileSync(path);
    data[data.length >> 1]! ^= 0xff;
    writeFileSync(path, data, { mode: 0o600 });
    await startAndQuery();
    assert.notEqual(cacheFile().inode, inode);
    const garbage = Buffer.from('not a code cache');
    writeFileSync(cacheFile().path, garbage);
    await startAndQuery();
    assert.notDeepEqual(readFileSync(cacheFile().path), garbage);
  });

  test('is not run when others could have written it, and is written again for this user only', async () => {
    await startAndQuery();
    const { path, inode } = cacheFile();
    chmodSync(path, 0o666);
    await startAndQuery();
    const rewritten = cacheFile();
    assert.notEqual(rewritten.inode, inode);
    assert.equal(rewritten.mode, 0o600);
  });

  test('is neither read nor written in a directory others can write', async () => {
    await startAndQuery();
    chmodSync(cacheDir, 0o777);
    rmSync(cacheFile().path);
    await startAndQuery();
    assert.deepEqual(readdirSync(cacheDir), []);
    chmodSync(cacheDir, 0o700);
    await startAndQuery();
    assert.equal(cacheFile().mode, 0o600);
  });

  test('is not kept with NODE_DISABLE_COMPILE_CACHE, as Node keeps none of its own', async () => {
    await startAndQuery({ NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.equal(existsSync(cacheDir), false);
  });
});
