// npm run bench: every measurement in one run (docs/benchmarks.md). The servers under test (bench/subjects.ts:
// ours, a baseline commit of ours, peers, the SDK floor) are driven over stdio by the MCP SDK client, as a host
// drives them, against the demo library API on 127.0.0.1. Every subject is launched with the same node on its
// bin, and ours and npx-run peers through npx as well, so that like is compared with like; every figure stands
// next to its floor measured in the same run (a bare `node -e ""`, a direct POST from this process), and the
// subjects take turns within every round, so that the noise of a shared machine falls on all of them alike.
// Progress goes to stderr; stdout gets the results only.
import { REMOTE_DEFAULTS, remoteSection } from './remote.ts';
import { measureResultShaping } from './result-shaping.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getIntrospectionQuery } from 'graphql';
import { serveGitHubSchema } from '../test/fixtures/github-schema.ts';
import { startApi, type Api } from './api.ts';
import { DIRECT, PING, type ColdStart, type Introspection, type Load } from './figures.ts';
import { describeCheckout, nodeVersion } from './launch.ts';
import { OptionsError, parseOptions, USAGE, type BenchOptions } from './options.ts';
import { bareNodeMs, cpuMsOf, killAll, memoryOf, openSession, type Session } from './processes.ts';
import { profileServer } from './profile.ts';
import { renderMarkdown, renderText } from './report.ts';
import { count, rotate, timeBurst, timeSequential } from './stats.ts';
import { OURS, prepare, subjectsOf, type Prepared, type Subject } from './subjects.ts';
import { buildReport, type Section } from './tables.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli.cjs');

/**
 * Bundles bench/sdk-floor.ts as the server itself is bundled, so that it starts and runs as ours does; beside it,
 * a bin of four lines like ours (scripts/build.mjs) that turns on Node's compile cache before it loads the floor.
 */
async function buildFloor(): Promise<{ floorBin: string; cachedFloorBin: string }> {
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
  const cachedFloorBin = join(dir, 'sdk-floor-cli.cjs');
  writeFileSync(
    cachedFloorBin,
    "#!/usr/bin/env node\n'use strict';\nrequire('node:module').enableCompileCache?.();\nrequire('./sdk-floor.cjs');\n",
  );
  return { floorBin: outfile, cachedFloorBin };
}

const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** The share of `total` that part i of `parts` gets, so that the parts add up to the total. */
const share = (total: number, parts: number, i: number) =>
  Math.floor(total / parts) + (i < total % parts ? 1 : 0);

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

async function measureColdStart(
  subjects: Subject[],
  url: string,
  options: BenchOptions,
  node: string,
): Promise<ColdStart> {
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
        const elapsed = await bareNodeMs(node);
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
    const serverPid = (name: string) => sessions.get(name)?.serverPid();
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
    for (const entrant of parallel) load.throughput[entrant.name] = { calls: 0, ms: 0, cpuMs: 0 };
    for (let round = 0; round < options.throughputRounds; round++) {
      progress(`throughput, round ${round + 1} of ${options.throughputRounds}`);
      const calls = share(options.throughputCalls, options.throughputRounds, round);
      for (const entrant of rotate(parallel, round)) {
        // CPU time is steadier than throughput on a shared machine: what the server spends, not what it waits.
        const pid = serverPid(entrant.name);
        const cpuBefore = pid === undefined ? NaN : cpuMsOf(pid);
        const elapsed = await timeBurst(entrant.run, calls, options.concurrency);
        const total = load.throughput[entrant.name]!;
        total.calls += calls;
        total.ms += elapsed;
        total.cpuMs += pid === undefined ? NaN : cpuMsOf(pid) - cpuBefore;
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

function describeMachine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}`;
}

/** The lines that say what was measured and how, under the tables. */
function describeMethod(
  subjects: readonly Subject[],
  options: BenchOptions,
  prepared: Prepared,
  introspection: Introspection | null,
): string[] {
  const version = nodeVersion(prepared.node);
  const baseline = subjects.find((subject) => subject.kind === 'baseline');
  const npx = subjects.filter((subject) => subject.launch === 'npx' && subject.measures === 'start-up');
  return [
    `Subjects: ${OURS} is dist/cli.cjs as built from this checkout (${describeCheckout(root)})` +
      (baseline && prepared.baseline
        ? `; ${baseline.name} is commit ${prepared.baseline.sha}, built by its own scripts/build.mjs into .bench/baseline`
        : '') +
      '; the SDK floor is bench/sdk-floor.ts, bundled as ours is: the least a server on the same SDK does for the ' +
      'call (one tool that POSTs the query and answers it as text and structuredContent, no checks).',
    `Launches: "node" is ${prepared.node} (Node.js ${version}) for every subject launched with node, each on its ` +
      "own bin (a peer's as npm installs it, in .bench/peers), spawned by the SDK client's stdio transport." +
      (npx.length > 0
        ? " Through npx: npm's npx, run on the same node (first on PATH) in the repository's directory; ours from " +
          'the tarball `npm pack` makes of dist/ (a file: spec, which npx reads without asking the registry), a ' +
          "peer by its registry spec (which npx looks up in the npm registry at every start, as a user's does). " +
          'Once started, a server behind npx is the same node process running the same file, so its calls are ' +
          'measured launched with node only.'
        : ' The launches through npx were skipped (--no-npx).'),
    `Start-up: medians of ${options.rounds} rounds, each spawning bare node and every subject once in turn (after one ` +
      "round not counted, which fills the page cache and npx's); ratios: the median of each round's own ratio.",
    `Calls: the query ${options.query} through the SDK client over stdio; latency over ${count(options.calls)} sequential calls ` +
      `per subject in ${options.latencyRounds} alternating rounds after ${count(options.warmup)} warm-up calls; throughput over ` +
      `${count(options.throughputCalls)} calls per subject in ${options.throughputRounds} alternating rounds, and the CPU time ` +
      'of the server process over them. Direct POST: fetch from the bench ' +
      `process to the same demo server (${options.apiProcess ? 'in a process of its own' : 'which runs in the bench process too'}); ` +
      'MCP ping: the SDK client pinging our server.',
    'RSS: VmRSS of the server process right after tools/list, after the warm-up and sequential calls, and after all ' +
      'calls; MB = 1,048,576 bytes.',
    introspection
      ? `Introspection: graphql_introspect without arguments against GitHub's public schema (@octokit/graphql-schema, ` +
        `served by graphql-js), first call of a fresh process and repeats, medians over ${options.introspectRounds} processes ` +
        `× ${options.introspectRepeats} repeats; RSS of each process after its repeats (it holds the schema).`
      : 'Introspection: skipped.',
  ];
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
  let node: string;
  try {
    // Whatever the option names (a path, a link, a name on PATH): the binary itself, whose directory goes on PATH.
    node = execFileSync(options.node, ['-p', 'process.execPath'], { encoding: 'utf8' }).trim();
  } catch {
    throw new OptionsError(`--node ${options.node}: not a node binary that runs`);
  }
  const prepared = prepare(root, options, node, await buildFloor());
  const subjects = subjectsOf(root, options, prepared);
  const loadBefore = os.loadavg();
  const started = performance.now();

  const api = await startApi(root, options.apiProcess);
  let cold: ColdStart;
  let load: Load;
  let profile: string | null = null;
  try {
    cold = await measureColdStart(subjects, api.url, options, node);
    load = await measureLoad(
      subjects.filter((subject) => subject.measures !== 'start-up'),
      api,
      options,
    );
    if (options.cpuProf) {
      progress(`CPU profile of ${OURS} under the same load, in ${options.cpuProf}`);
      profile = await profileServer(root, options.cpuProf, api, { ...options, node });
    }
  } finally {
    await api.close();
  }
  const introspected = subjects.filter((subject) => subject.measures === 'all');
  const introspection =
    options.introspectRounds > 0 ? await measureIntrospection(introspected, options) : null;
  progress('remote mode: stdio, HTTP (2025 and 2026 clients) and direct POSTs');
  const remote = await remoteSection(options.apiProcess, {
    ...(options.quick
      ? { ...REMOTE_DEFAULTS, calls: 200, throughputCalls: 2_000, rounds: 2 }
      : REMOTE_DEFAULTS),
    node,
  });
  const seconds = (performance.now() - started) / 1000;
  const loadAfter = os.loadavg();

  const { sections, verdicts } = buildReport(subjects, options, { cold, load, introspection });
  const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const method = [
    `Node.js ${nodeVersion(node)}, ${describeMachine()}; ${new Date().toISOString().slice(0, 10)}; ${options.quick ? 'quick run' : 'full run'}, ${Math.round(seconds)} s; load average ${loads(loadBefore)} → ${loads(loadAfter)}.`,
    ...describeMethod(subjects, options, prepared, introspection),
  ];
  const render = (section: Section, markdown: boolean): string[] => {
    const body = section.table
      ? [markdown ? renderMarkdown(section.table) : renderText(section.table)]
      : (section.lines ?? []).map((line) => (markdown ? `- ${line}` : `  ${line}`));
    return [markdown ? `**${section.title}**` : `${section.title}:`, ...(markdown ? [''] : []), ...body, ''];
  };

  const out: string[] = ['', `graphql-mcp bench (${options.quick ? 'quick' : 'full'} run)`, ''];
  for (const section of sections) out.push(...render(section, false));
  out.push(...method.map((line) => `- ${line}`));
  if (profile) out.push('', profile);
  out.push('', ...remote);
  out.push('', ...(await measureResultShaping()));
  out.push('', 'Markdown:', '');
  for (const section of sections) out.push(...render(section, true));
  out.push(...method.map((line) => `- ${line}`), '');
  process.stdout.write(out.join('\n'));

  if (options.json) {
    writeFileSync(
      options.json,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: describeMachine(),
          node: { path: node, version: nodeVersion(node) },
          loadBefore,
          loadAfter,
          options,
          subjects: subjects.map(({ name, kind, launch, commandLine, measures }) => ({
            name,
            kind,
            launch,
            commandLine,
            measures,
          })),
          baseline: prepared.baseline,
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
