// Remote mode against stdio and the API itself, in one run: the built server over stdio (the SDK client, as a
// host drives it), the same server in remote mode (--transport=http) called by 32 keep-alive HTTP clients
// sending tools/call as 2025-era clients do (stateless: no session), and direct POSTs of the query to the API.
// Targets (of an earlier round of work): remote throughput at least 0.7× stdio's, remote p50 at most 2× a direct POST's. Beside
// them, the floor of any remote MCP server: a bare HTTP pass-through with no MCP at all (bench/bare-proxy.ts).
// Runnable alone: `npx tsx bench/remote.ts` (after npm run build); `npm run bench` prints it after its table.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi, type Api } from './api.ts';
import { cpuMsOf, killAll, memoryOf, openSession, startScript, track, untrack } from './processes.ts';
import { count, median, ms, rotate, timeBurst, timeSequential } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli.cjs');

export const REMOTE_TARGETS = { throughputVsStdio: 0.7, p50VsDirect: 2 };

export interface RemoteOptions {
  readonly query: string;
  readonly concurrency: number;
  /** Sequential calls per entrant for the p50, after as many warm-up calls. */
  readonly calls: number;
  readonly throughputCalls: number;
  readonly rounds: number;
  /** The node binary that runs the server and the pass-through (bench --node); the bench's own by default. */
  readonly node?: string;
}

export const REMOTE_DEFAULTS: RemoteOptions = {
  query: '{ books { title } }',
  concurrency: 32,
  calls: 600,
  throughputCalls: 6_000,
  rounds: 3,
};

/** A keep-alive POST of a fixed body to a URL; resolves with the response body, rejects unless 200. */
function poster(
  url: string,
  body: string,
  headers: Record<string, string>,
  agent: Agent,
): () => Promise<string> {
  const target = new URL(url);
  const length = String(Buffer.byteLength(body));
  return () =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200)
              reject(new Error(`HTTP ${res.statusCode} from ${url}: ${text.slice(0, 200)}`));
            else resolve(text);
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** The server in remote mode, on a free port; resolves with its URL and PID. */
async function startRemote(
  apiUrl: string,
  node: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(node, [CLI, '--transport=http', '--port=0', `--endpoint=${apiUrl}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(child.pid);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    const onData = (chunk: string) => {
      stderr += chunk;
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        // The request log (one line per request) is read and dropped from now on.
        stderr = '';
        child.stderr.off('data', onData);
        child.stderr.resume();
        resolve(match[1]!);
      }
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`remote mode exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      untrack(child.pid);
    },
  };
}

/** Lines of figures: p50 and throughput of each entrant, the ratios and whether the targets are met. */
export async function measureRemote(api: Api, options: RemoteOptions = REMOTE_DEFAULTS): Promise<string[]> {
  const node = options.node ?? process.execPath;
  const stdio = await openSession({
    command: node,
    args: [CLI, `--endpoint=${api.url}`],
    env: {},
  });
  const remote = await startRemote(api.url, node);
  // The bare pass-through (bench/bare-proxy.ts), in a process of its own.
  const bare = await startScript(root, 'bench/bare-proxy.ts', [api.url], node);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'graphql_query', arguments: { query: options.query } },
    });
    const overHttp = poster(
      remote.url,
      call,
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      agent,
    );
    // The same call as a 2026-07-28 client sends it: a _meta envelope and the Mcp-Method/Mcp-Name headers.
    const modernCall = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'graphql_query',
        arguments: { query: options.query },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const overHttpModern = poster(
      remote.url,
      modernCall,
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'graphql_query',
      },
      agent,
    );
    const overBare = poster(bare.url, call, { 'content-type': 'application/json' }, agent);
    const direct = poster(
      api.url,
      JSON.stringify({ query: options.query }),
      {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json;q=0.9',
      },
      agent,
    );
    // The process each entrant's calls are served by, whose CPU time per call is measured (the API of a
    // direct POST runs in this process, beside the clients: not measured).
    const servedBy: Record<string, () => number | undefined> = {
      stdio: () => stdio.serverPid(),
      'remote (HTTP)': () => remote.pid,
      'remote, 2026': () => remote.pid,
      'bare proxy': () => bare.pid,
    };
    const entrants = [
      { name: 'stdio', run: () => stdio.query(options.query) },
      {
        name: 'remote (HTTP)',
        run: async () => {
          const text = await overHttp();
          if (text.includes('"isError":true')) throw new Error(`remote call failed: ${text.slice(0, 200)}`);
        },
      },
      {
        name: 'remote, 2026',
        run: async () => {
          const text = await overHttpModern();
          if (text.includes('"isError":true') || !text.includes('"content"')) {
            throw new Error(`remote call failed: ${text.slice(0, 200)}`);
          }
        },
      },
      { name: 'direct POST', run: direct },
      { name: 'bare proxy', run: overBare },
    ];
    const latency = new Map(entrants.map((entrant) => [entrant.name, [] as number[]]));
    const throughput = new Map(entrants.map((entrant) => [entrant.name, { calls: 0, ms: 0, cpuMs: 0 }]));
    for (const entrant of entrants) await timeSequential(entrant.run, Math.min(options.calls, 200), []);
    for (let round = 0; round < options.rounds; round++) {
      for (const entrant of rotate(entrants, round)) {
        await timeSequential(
          entrant.run,
          Math.ceil(options.calls / options.rounds),
          latency.get(entrant.name)!,
        );
      }
      for (const entrant of rotate(entrants, round)) {
        const calls = Math.ceil(options.throughputCalls / options.rounds);
        const pid = servedBy[entrant.name]?.();
        const cpuBefore = pid === undefined ? NaN : cpuMsOf(pid);
        const elapsed = await timeBurst(entrant.run, calls, options.concurrency);
        const total = throughput.get(entrant.name)!;
        total.calls += calls;
        total.ms += elapsed;
        total.cpuMs += pid === undefined ? NaN : cpuMsOf(pid) - cpuBefore;
      }
      api.forget();
    }
    const p50 = (name: string) => median(latency.get(name)!);
    const perSecond = (name: string) => (throughput.get(name)!.calls / throughput.get(name)!.ms) * 1000;
    const verdicts = ['remote (HTTP)', 'remote, 2026'].flatMap((name) => {
      const throughputRatio = perSecond(name) / perSecond('stdio');
      const p50Ratio = p50(name) / p50('direct POST');
      return [
        `  ${throughputRatio >= REMOTE_TARGETS.throughputVsStdio ? 'met    ' : 'NOT MET'}  ${name} throughput / stdio: ${throughputRatio.toFixed(2)}× (target ≥ ${REMOTE_TARGETS.throughputVsStdio}×)`,
        `  ${p50Ratio <= REMOTE_TARGETS.p50VsDirect ? 'met    ' : 'NOT MET'}  ${name} p50 / direct POST: ${p50Ratio.toFixed(2)}× (target ≤ ${REMOTE_TARGETS.p50VsDirect}×)`,
      ];
    });
    const floor = [
      `  the floor, a bare pass-through with no MCP (bench/bare-proxy.ts): p50 ${(p50('bare proxy') / p50('direct POST')).toFixed(2)}× a direct POST, ` +
        `throughput ${(perSecond('bare proxy') / perSecond('stdio')).toFixed(2)}× stdio's`,
    ];
    const cpuPerCall = entrants
      .filter(({ name }) => !Number.isNaN(throughput.get(name)!.cpuMs))
      .map(
        ({ name }) =>
          `${name} ${Math.round((throughput.get(name)!.cpuMs / throughput.get(name)!.calls) * 1000)} µs`,
      );
    const rssMb = (pid: number) => (memoryOf(pid).rssKb / 1024).toFixed(0);
    return [
      `Remote mode (${options.concurrency} keep-alive clients, tools/call of ${options.query} as a 2025 client sends it (stateless) and as a 2026-07-28 client does, and through a bare pass-through; ${count(options.calls)} sequential and ${count(options.throughputCalls)} concurrent calls each, ${options.rounds} alternating rounds):`,
      ...entrants.map(
        ({ name }) =>
          `  ${name.padEnd(14)} p50 ${ms(p50(name)).padStart(8)}   throughput ${count(Math.round(perSecond(name))).padStart(6)}/s`,
      ),
      `  RSS after the load: stdio ${rssMb(stdio.serverPid())} MB, remote ${rssMb(remote.pid)} MB`,
      `  CPU per call of the serving process, under the concurrent load (steadier than throughput on a shared machine): ${cpuPerCall.join(', ')}`,
      ...verdicts,
      ...floor,
    ];
  } finally {
    agent.destroy();
    await stdio.close();
    await remote.stop();
    await bare.stop();
  }
}

/** The remote-mode section with an API of its own (in this process, or in its own with `apiProcess`). */
export async function remoteSection(
  apiProcess: boolean,
  options: RemoteOptions = REMOTE_DEFAULTS,
): Promise<string[]> {
  const api = await startApi(root, apiProcess);
  try {
    return await measureRemote(api, options);
  } finally {
    await api.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.on('exit', killAll);
  process.stdout.write(`${(await remoteSection(process.argv.includes('--api-process'))).join('\n')}\n`);
  process.exit(0);
}
