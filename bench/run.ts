// npm run bench: every measurement in one run (docs/benchmarks.md). The built dist/cli.cjs is driven over stdio by the
// MCP SDK client, as a host drives it, against the demo library API on 127.0.0.1; every figure stands next
// to its floor measured in the same run (a bare `node -e ""`, a direct POST from this process), and the
// subjects take turns within every round, so that the noise of a shared machine falls on all of them alike.
// Progress goes to stderr; stdout gets the results only.
import { REMOTE_DEFAULTS, remoteSection } from './remote.ts';
import { measureResultShaping } from './result-shaping.ts';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getIntrospectionQuery } from 'graphql';
import { serveGitHubSchema } from '../test/fixtures/github-schema.ts';
import { startApi, type Api } from './api.ts';
import { OptionsError, parseOptions, splitCommand, USAGE, type BenchOptions } from './options.ts';
import { bareNodeMs, killAll, memoryOf, openSession, type ServerCommand, type Session } from './processes.ts';
import { profileServer } from './profile.ts';
import { renderMarkdown, renderText, type Table } from './report.ts';
import {
  count,
  megabytes,
  median,
  ms,
  perSecond,
  quantile,
  ratio,
  rotate,
  timeBurst,
  timeSequential,
} from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli.cjs');
const OURS = 'graphql-mcp';
/** Ours again, driven by a client of the 2026-07-28 protocol (server/discover, no initialize). */
const OURS_2026 = 'graphql-mcp, 2026 client';
/** The least any server on this SDK does for a call (bench/sdk-floor.ts): a reference, not a rival. */
const FLOOR = 'SDK floor';

/** A server under test: ours, the SDK floor, or a peer from the command line. */
interface Subject {
  name: string;
  server(url: string): ServerCommand;
  /** Has graphql_query only: not introspected. */
  queryOnly?: boolean;
}

/** Bundles bench/sdk-floor.ts as the server itself is bundled, so that it starts and runs as ours does. */
async function buildFloor(): Promise<string> {
  const dir = join(root, 'node_modules/.cache/graphql-mcp-bench');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, 'sdk-floor.cjs');
  await build({
    entryPoints: [join(root, 'bench/sdk-floor.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
  });
  return outfile;
}

/** Against the first peer (mcp-graphql in the README's example): ours over theirs, in the same run. */
const PEER_TARGETS = { toolsListRatio: 1.0, p50Ratio: 0.8, throughputRatio: 1.3, rssRatio: 0.8 };

/** Targets of an earlier round, against bare node and direct POSTs: kept as reference. */
const TARGETS = {
  toolsListRatio: 1.1,
  p50Ratio: 1.5,
  throughputRatio: 0.9,
  rssMb: 70,
  repeatedIntrospectMs: 5,
};

const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** The share of `total` that part i of `parts` gets, so that the parts add up to the total. */
const share = (total: number, parts: number, i: number) =>
  Math.floor(total / parts) + (i < total % parts ? 1 : 0);

function subjectsOf(options: BenchOptions, floorBin: string): Subject[] {
  const ours: Subject = {
    name: OURS,
    server: (url) => ({ command: process.execPath, args: [CLI, `--endpoint=${url}`], env: {} }),
  };
  const ours2026: Subject = {
    name: OURS_2026,
    server: (url) => ({ ...ours.server(url), era: 'modern' }),
  };
  const floor: Subject = {
    name: FLOOR,
    server: (url) => ({ command: process.execPath, args: [floorBin, '--endpoint', url], env: {} }),
    queryOnly: true,
  };
  const peers = options.peers.map((peer): Subject => {
    const words = splitCommand(peer.command);
    if (words.length === 0) throw new OptionsError('--peer needs a command');
    return {
      name: peer.name,
      server: (url) => {
        const fill = (text: string) => text.replaceAll('{url}', url);
        const [command, ...args] = words.map(fill);
        return {
          command: command!,
          args,
          env: Object.fromEntries(Object.entries(peer.env).map(([name, value]) => [name, fill(value)])),
          queryTool: peer.queryTool,
          introspectTool: peer.introspectTool,
        };
      },
    };
  });
  return [ours, ours2026, ...peers, floor];
}

/** A direct POST of a query from this process, as our server sends it; throws unless it answers data. */
function directPost(url: string, query: string): () => Promise<void> {
  const body = JSON.stringify({ query });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json;q=0.9',
  };
  return async () => {
    const response = await fetch(url, { method: 'POST', headers, body });
    const text = await response.text();
    const payload = JSON.parse(text) as { data?: unknown; errors?: unknown };
    if (!response.ok || payload.errors !== undefined || payload.data == null) {
      throw new Error(`direct POST to ${url} failed: ${response.status} ${text.slice(0, 300)}`);
    }
  };
}

interface ColdStart {
  bareNodeMs: number[];
  initializeMs: Record<string, number[]>;
  toolsListMs: Record<string, number[]>;
}

async function measureColdStart(subjects: Subject[], url: string, options: BenchOptions): Promise<ColdStart> {
  const result: ColdStart = { bareNodeMs: [], initializeMs: {}, toolsListMs: {} };
  for (const subject of subjects) {
    result.initializeMs[subject.name] = [];
    result.toolsListMs[subject.name] = [];
  }
  const entrants: Array<Subject | null> = [null, ...subjects];
  // Round 0 is not counted: it brings the files into the page cache and fills npx's cache.
  for (let round = 0; round <= options.rounds; round++) {
    if (round > 0) progress(`cold start, round ${round} of ${options.rounds}`);
    for (const subject of rotate(entrants, round)) {
      if (subject === null) {
        const elapsed = await bareNodeMs();
        if (round > 0) result.bareNodeMs.push(elapsed);
        continue;
      }
      const session = await openSession(subject.server(url));
      await session.close();
      if (round === 0) continue;
      result.initializeMs[subject.name]!.push(session.initializeMs);
      result.toolsListMs[subject.name]!.push(session.toolsListMs);
    }
  }
  return result;
}

interface Load {
  /** Per-call ms, by entrant (the subjects, 'direct POST', 'MCP ping'). */
  latencyMs: Record<string, number[]>;
  /** Calls per second at the set concurrency, by entrant. */
  throughput: Record<string, { calls: number; ms: number }>;
  memory: Record<
    string,
    {
      startRssKb: number;
      /** After the warm-up and the sequential calls. */
      sequentialRssKb: number;
      sequentialCalls: number;
      /** After all calls. */
      rssKb: number;
      peakKb: number;
      calls: number;
      pid: number;
      rootPid: number;
    }
  >;
}

const DIRECT = 'direct POST';
const PING = 'MCP ping';

async function measureLoad(subjects: Subject[], api: Api, options: BenchOptions): Promise<Load> {
  const load: Load = { latencyMs: {}, throughput: {}, memory: {} };
  const sessions = new Map<string, Session>();
  try {
    for (const subject of subjects) {
      const session = await openSession(subject.server(api.url));
      sessions.set(subject.name, session);
      const { rssKb } = memoryOf(session.serverPid());
      load.memory[subject.name] = {
        startRssKb: rssKb,
        sequentialRssKb: NaN,
        sequentialCalls: 0,
        rssKb: NaN,
        peakKb: NaN,
        calls: 0,
        pid: session.serverPid(),
        rootPid: session.pid,
      };
    }
    const ours = sessions.get(OURS)!;
    const entrants: Array<{ name: string; run: () => Promise<void> }> = [
      { name: DIRECT, run: directPost(api.url, options.query) },
      ...subjects.map((subject) => {
        const session = sessions.get(subject.name)!;
        return { name: subject.name, run: () => session.query(options.query) };
      }),
      // The SDK's own round trip over stdio, without a tool: the floor of any MCP call.
      { name: PING, run: () => ours.ping() },
    ];

    progress(`warm-up: ${options.warmup} sequential calls each`);
    for (const entrant of entrants) await timeSequential(entrant.run, options.warmup, []);

    for (const entrant of entrants) load.latencyMs[entrant.name] = [];
    for (let round = 0; round < options.latencyRounds; round++) {
      progress(`latency, round ${round + 1} of ${options.latencyRounds}`);
      const calls = share(options.calls, options.latencyRounds, round);
      for (const entrant of rotate(entrants, round)) {
        await timeSequential(entrant.run, calls, load.latencyMs[entrant.name]!);
      }
      api.forget();
    }

    for (const subject of subjects) {
      const memory = load.memory[subject.name]!;
      memory.sequentialRssKb = memoryOf(memory.pid).rssKb;
      memory.sequentialCalls = sessions.get(subject.name)!.calls;
    }

    const parallel = entrants.filter((entrant) => entrant.name !== PING);
    progress(`throughput warm-up: ${2 * options.concurrency} calls each, ${options.concurrency} in flight`);
    for (const entrant of parallel)
      await timeBurst(entrant.run, 2 * options.concurrency, options.concurrency);
    for (const entrant of parallel) load.throughput[entrant.name] = { calls: 0, ms: 0 };
    for (let round = 0; round < options.throughputRounds; round++) {
      progress(`throughput, round ${round + 1} of ${options.throughputRounds}`);
      const calls = share(options.throughputCalls, options.throughputRounds, round);
      for (const entrant of rotate(parallel, round)) {
        const elapsed = await timeBurst(entrant.run, calls, options.concurrency);
        load.throughput[entrant.name]!.calls += calls;
        load.throughput[entrant.name]!.ms += elapsed;
      }
      api.forget();
    }

    for (const subject of subjects) {
      const session = sessions.get(subject.name)!;
      const memory = load.memory[subject.name]!;
      const now = memoryOf(memory.pid);
      memory.rssKb = now.rssKb;
      memory.peakKb = now.peakKb;
      memory.calls = session.calls;
    }
  } finally {
    for (const session of sessions.values()) await session.close();
  }
  return load;
}

interface Introspection {
  /** The GitHub schema's load and build in this process, ms. */
  loadMs: number;
  /** A direct POST of graphql-js's introspection query: the endpoint's share of a first introspection. */
  directMs: number[];
  firstMs: Record<string, number[]>;
  repeatedMs: Record<string, number[]>;
  /** The server's RSS after its repeats, kB: the schema is cached, and large responses leave malloc larger. */
  rssKb: Record<string, number[]>;
  /** Characters of text the tool returned. */
  chars: Record<string, number>;
}

async function measureIntrospection(subjects: Subject[], options: BenchOptions): Promise<Introspection> {
  const t0 = performance.now();
  const github = await serveGitHubSchema();
  const result: Introspection = {
    loadMs: performance.now() - t0,
    directMs: [],
    firstMs: {},
    repeatedMs: {},
    rssKb: {},
    chars: {},
  };
  try {
    for (const subject of subjects) {
      result.firstMs[subject.name] = [];
      result.repeatedMs[subject.name] = [];
      result.rssKb[subject.name] = [];
    }
    const body = JSON.stringify({
      query: getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }),
    });
    const direct = async () => {
      const response = await fetch(github.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const payload = (await response.json()) as { data?: { __schema?: unknown } };
      if (!payload.data?.__schema) throw new Error(`the introspection POST failed: ${response.status}`);
    };
    // Not counted: the API's first introspection runs graphql-js cold, which whoever came first would pay.
    await direct();
    const entrants: Array<Subject | null> = [null, ...subjects];
    for (let round = 0; round < options.introspectRounds; round++) {
      progress(`GitHub-schema introspection, round ${round + 1} of ${options.introspectRounds}`);
      for (const subject of rotate(entrants, round)) {
        if (subject === null) {
          const t = performance.now();
          await direct();
          result.directMs.push(performance.now() - t);
          continue;
        }
        const session = await openSession(subject.server(github.url));
        try {
          let t = performance.now();
          result.chars[subject.name] = await session.introspect();
          result.firstMs[subject.name]!.push(performance.now() - t);
          for (let i = 0; i < options.introspectRepeats; i++) {
            t = performance.now();
            await session.introspect();
            result.repeatedMs[subject.name]!.push(performance.now() - t);
          }
          result.rssKb[subject.name]!.push(memoryOf(session.serverPid()).rssKb);
        } finally {
          await session.close();
        }
      }
      github.requests.length = 0;
    }
  } finally {
    await github.close();
  }
  return result;
}

interface Verdict {
  measure: string;
  target: string;
  met: boolean | null;
}

function buildTable(
  subjects: Subject[],
  options: BenchOptions,
  cold: ColdStart,
  load: Load,
  introspection: Introspection | null,
): { table: Table; verdicts: Verdict[] } {
  const names = subjects.map((subject) => subject.name);
  const verdicts: Verdict[] = [];
  const rows: string[][] = [];
  const row = (
    measure: string,
    cell: (name: string) => string,
    reference: string,
    target = '',
    met: boolean | null = null,
  ) => {
    rows.push([measure, ...names.map(cell), reference, target, met === null ? '' : met ? 'met' : 'NOT MET']);
    if (target) verdicts.push({ measure, target, met });
  };
  const withRatio = (value: string, r: number) => `${value} (${ratio(r)})`;
  // Ratios are judged as printed, to two decimals: a third is below the noise, and a "0.90×" marked
  // as missing "≥ 0.90×" would only confuse.
  const rounded = (r: number) => Math.round(r * 100) / 100;

  const bare = median(cold.bareNodeMs);
  const initialize = (name: string) => median(cold.initializeMs[name]!);
  const toolsList = (name: string) => median(cold.toolsListMs[name]!);
  // Each round spawns bare node and every subject back to back: the median of the rounds' own ratios
  // leaves out the drift of the machine's speed from one round to the next, which the ratio of the two
  // medians keeps.
  const pairedRatio = (times: number[]) => median(times.map((time, round) => time / cold.bareNodeMs[round]!));
  row(
    'spawn → initialize answered',
    (n) => withRatio(ms(initialize(n)), pairedRatio(cold.initializeMs[n]!)),
    `node -e "": ${ms(bare)}`,
  );
  const listRatio = rounded(pairedRatio(cold.toolsListMs[OURS]!));
  row(
    'spawn → tools/list answered',
    (n) => withRatio(ms(toolsList(n)), pairedRatio(cold.toolsListMs[n]!)),
    `node -e "": ${ms(bare)}`,
    `≤ ${ratio(TARGETS.toolsListRatio)} node`,
    listRatio <= TARGETS.toolsListRatio,
  );

  const p = (name: string, q: number) => quantile(load.latencyMs[name]!, q);
  const p50Ratio = rounded(p(OURS, 0.5) / p(DIRECT, 0.5));
  row(
    'small query, p50 per call',
    (n) => withRatio(ms(p(n, 0.5)), p(n, 0.5) / p(DIRECT, 0.5)),
    `direct POST: ${ms(p(DIRECT, 0.5))}; MCP ping: ${ms(p(PING, 0.5))}`,
    `≤ ${ratio(TARGETS.p50Ratio)} direct`,
    p50Ratio <= TARGETS.p50Ratio,
  );
  row(
    'small query, p99 per call',
    (n) => withRatio(ms(p(n, 0.99)), p(n, 0.99) / p(DIRECT, 0.99)),
    `direct POST: ${ms(p(DIRECT, 0.99))}; MCP ping: ${ms(p(PING, 0.99))}`,
  );

  const rate = (name: string) => (load.throughput[name]!.calls / load.throughput[name]!.ms) * 1000;
  const rateRatio = rounded(rate(OURS) / rate(DIRECT));
  row(
    `throughput, ${options.concurrency} in flight`,
    (n) => withRatio(perSecond(rate(n), 'calls'), rate(n) / rate(DIRECT)),
    `direct POST: ${perSecond(rate(DIRECT), 'req')}`,
    `≥ ${ratio(TARGETS.throughputRatio)} direct`,
    rateRatio >= TARGETS.throughputRatio,
  );

  const memory = (name: string) => load.memory[name]!;
  row('RSS after start-up', (n) => megabytes(memory(n).startRssKb), '');
  row(
    `RSS after ${count(memory(OURS).sequentialCalls)} calls`,
    (n) => megabytes(memory(n).sequentialRssKb),
    '',
  );
  const rssMb = memory(OURS).rssKb / 1024;
  row(
    `RSS after ${count(memory(OURS).calls)} calls`,
    (n) => `${megabytes(memory(n).rssKb)} (peak ${megabytes(memory(n).peakKb)})`,
    '',
    `≤ ${TARGETS.rssMb} MB`,
    rssMb <= TARGETS.rssMb,
  );

  if (introspection) {
    const first = (name: string) => median(introspection.firstMs[name]!);
    const repeated = (name: string) => median(introspection.repeatedMs[name]!);
    const introspected = (cell: (name: string) => string) => (name: string) =>
      introspection.firstMs[name] === undefined ? '—' : cell(name);
    row(
      'GitHub-schema introspect, first',
      introspected((n) => ms(first(n))),
      `direct POST of the introspection query: ${ms(median(introspection.directMs))}`,
    );
    row(
      'GitHub-schema introspect, repeated',
      introspected((n) => ms(repeated(n))),
      '',
      `≤ ${TARGETS.repeatedIntrospectMs} ms`,
      repeated(OURS) <= TARGETS.repeatedIntrospectMs,
    );
    row(
      'RSS after GitHub introspects',
      introspected((n) => megabytes(median(introspection.rssKb[n]!))),
      '',
    );
  } else {
    row('GitHub-schema introspect', () => 'skipped', '');
  }

  const peer = subjects.find((subject) => ![OURS, OURS_2026, FLOOR].includes(subject.name))?.name;
  if (peer !== undefined) {
    // The floor's own ratio beside ours: how near the target any server on this SDK can come.
    const vs = (measure: string, of: (name: string) => number, target: string, met: boolean) => {
      rows.push([
        `${measure} vs ${peer}`,
        ...names.map((n) => (n === OURS || n === FLOOR ? ratio(of(n) / of(peer)) : '')),
        '',
        target,
        met ? 'met' : 'NOT MET',
      ]);
      verdicts.push({ measure: `${measure} vs ${peer}`, target, met });
    };
    const list = rounded(toolsList(OURS) / toolsList(peer));
    vs(
      'spawn → tools/list',
      toolsList,
      `≤ ${ratio(PEER_TARGETS.toolsListRatio)}`,
      list <= PEER_TARGETS.toolsListRatio,
    );
    const p50 = rounded(p(OURS, 0.5) / p(peer, 0.5));
    vs(
      'small query p50',
      (n) => p(n, 0.5),
      `≤ ${ratio(PEER_TARGETS.p50Ratio)}`,
      p50 <= PEER_TARGETS.p50Ratio,
    );
    const tput = rounded(rate(OURS) / rate(peer));
    vs('throughput', rate, `≥ ${ratio(PEER_TARGETS.throughputRatio)}`, tput >= PEER_TARGETS.throughputRatio);
    const rss = rounded(memory(OURS).rssKb / memory(peer).rssKb);
    vs(
      'RSS after the load',
      (n) => memory(n).rssKb,
      `≤ ${ratio(PEER_TARGETS.rssRatio)}`,
      rss <= PEER_TARGETS.rssRatio,
    );
  }
  return {
    table: { header: ['measure', ...names, 'reference (same run)', 'target', 'status'], rows },
    verdicts,
  };
}

function describeMachine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `Node.js ${process.version}, ${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}`;
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (parsed === 'help') return void process.stdout.write(`${USAGE}\n`);
  const options = parsed;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npm run build)`);
  const subjects = subjectsOf(options, await buildFloor());
  const loadBefore = os.loadavg();
  const started = performance.now();

  const api = await startApi(root, options.apiProcess);
  let cold: ColdStart;
  let load: Load;
  let profile: string | null = null;
  try {
    cold = await measureColdStart(subjects, api.url, options);
    load = await measureLoad(subjects, api, options);
    if (options.cpuProf) {
      progress(`CPU profile of ${OURS} under the same load, in ${options.cpuProf}`);
      profile = await profileServer(root, options.cpuProf, api, options);
    }
  } finally {
    await api.close();
  }
  const introspected = subjects.filter((subject) => !subject.queryOnly);
  const introspection =
    options.introspectRounds > 0 ? await measureIntrospection(introspected, options) : null;
  progress('remote mode: stdio, HTTP (2025 and 2026 clients) and direct POSTs');
  const remote = await remoteSection(
    options.apiProcess,
    options.quick ? { ...REMOTE_DEFAULTS, calls: 200, throughputCalls: 2_000, rounds: 2 } : REMOTE_DEFAULTS,
  );
  const seconds = (performance.now() - started) / 1000;
  const loadAfter = os.loadavg();

  const { table, verdicts } = buildTable(subjects, options, cold, load, introspection);
  const met = verdicts.filter((verdict) => verdict.met).length;
  const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const method = [
    `${describeMachine()}; ${new Date().toISOString().slice(0, 10)}; ${options.quick ? 'quick run' : 'full run'}, ${Math.round(seconds)} s; load average ${loads(loadBefore)} → ${loads(loadAfter)}.`,
    `Cold start: medians of ${options.rounds} rounds, each spawning bare node and every subject once in turn (after one round not counted); ratios: the median of each round's own ratio.`,
    `Calls: the query ${options.query} through the SDK client over stdio; latency over ${count(options.calls)} sequential calls ` +
      `per subject in ${options.latencyRounds} alternating rounds after ${count(options.warmup)} warm-up calls; throughput over ` +
      `${count(options.throughputCalls)} calls per subject in ${options.throughputRounds} alternating rounds. Direct POST: fetch from the bench ` +
      `process to the same demo server (${options.apiProcess ? 'in a process of its own' : 'which runs in the bench process too'}); ` +
      'MCP ping: the SDK client pinging our server. SDK floor: bench/sdk-floor.ts, the least a server on the same SDK ' +
      'does for the call (one tool that POSTs the query and answers it as text and structuredContent, no checks).',
    'RSS: VmRSS of the server process (for a peer behind a runner, the deepest process of its tree) right after ' +
      'tools/list, after the warm-up and sequential calls, and after all calls; MB = 1,048,576 bytes.',
    introspection
      ? `Introspection: graphql_introspect without arguments against GitHub's public schema (@octokit/graphql-schema, ` +
        `served by graphql-js), first call of a fresh process and repeats, medians over ${options.introspectRounds} processes ` +
        `× ${options.introspectRepeats} repeats; result ${Object.entries(introspection.chars)
          .map(([name, chars]) => `${name}: ${count(chars)} characters`)
          .join(', ')}; RSS of each process after its repeats (it holds the schema).`
      : 'Introspection: skipped.',
  ];

  const out: string[] = [];
  out.push('', `graphql-mcp bench (${options.quick ? 'quick' : 'full'} run)`, '', renderText(table), '');
  out.push(`Targets met: ${met} of ${verdicts.length}`);
  for (const verdict of verdicts)
    out.push(`  ${verdict.met ? 'met    ' : 'NOT MET'}  ${verdict.measure}: ${verdict.target}`);
  out.push('', ...method.map((line) => `- ${line}`));
  if (profile) out.push('', profile);
  out.push('', ...remote);
  out.push('', ...(await measureResultShaping()));
  out.push('', 'Markdown:', '', renderMarkdown(table), '', ...method.map((line) => `- ${line}`), '');
  process.stdout.write(out.join('\n'));

  if (options.json) {
    writeFileSync(
      options.json,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: describeMachine(),
          loadBefore,
          loadAfter,
          options,
          cold,
          load,
          introspection,
          verdicts,
        },
        null,
        2,
      ),
    );
    progress(`raw figures written to ${options.json}`);
  }
}

// No child process may outlive the bench, whatever ends it.
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

main().then(
  // Lingering keep-alive sockets of fetch must not hold the process open.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
