// The bench's command line: how much to measure, and which other servers to measure beside ours.

/** Another MCP server measured beside graphql-mcp, from `--peer` and the options that follow it. */
export interface PeerSpec {
  /** The name shown in the table. */
  name: string;
  /** The command as given; `{url}` in it is replaced by the GraphQL endpoint. */
  command: string;
  /** Extra environment variables; `{url}` in a value is replaced by the endpoint. */
  env: Record<string, string>;
  /** The tool that runs a query; found from tools/list when not given. */
  queryTool?: string;
  /** The tool that introspects; found from tools/list when not given. */
  introspectTool?: string;
}

export interface BenchOptions {
  /** Cold-start rounds; each round spawns every subject once. */
  rounds: number;
  /** Sequential calls per subject before the latency is measured. */
  warmup: number;
  /** Sequential calls per subject that are measured. */
  calls: number;
  /** Alternating rounds that the sequential calls are split into. */
  latencyRounds: number;
  /** Calls per subject in the throughput test. */
  throughputCalls: number;
  /** Alternating rounds that the throughput calls are split into. */
  throughputRounds: number;
  /** Calls in flight in the throughput test. */
  concurrency: number;
  /** Fresh processes per subject for the GitHub-schema introspection; 0 skips it. */
  introspectRounds: number;
  /** Repeated introspections after the first, per process. */
  introspectRepeats: number;
  /** The query every call sends. */
  query: string;
  peers: PeerSpec[];
  /** Where to write the raw figures as JSON. */
  json?: string;
  /** Runs the demo API in a process of its own instead of the bench's. */
  apiProcess: boolean;
  /** A directory for a V8 CPU profile of our server during the load. */
  cpuProf?: string;
  /** The node binary every node-launched subject runs on (and npx, through PATH). */
  node: string;
  /** Another commit of ours, built and measured beside this checkout's build. */
  baseline?: string;
  /** Measures the start-up of ours and of `npx -y` peers through npx as well. */
  npx: boolean;
  quick: boolean;
}

export const USAGE = `Usage: npm run bench -- [options]

Measures the built dist/cli.cjs over stdio with the MCP SDK client against a local GraphQL server,
next to bare node, direct POSTs to the same server, the SDK floor and any peers (docs/benchmarks.md).
Every subject is launched with node on its bin; ours and every 'npx -y PACKAGE' peer are launched through
npx as well (ours from a tarball packed into .bench/), for the start-up figures.

  --quick                    a short run (about a minute): fewer rounds and calls
  --rounds N                 start-up rounds (default 50)
  --warmup N                 warm-up calls per subject (default 200)
  --calls N                  measured sequential calls per subject (default 2000)
  --throughput-calls N       calls per subject at --concurrency in flight (default 4000)
  --concurrency N            calls in flight for throughput (default 32)
  --introspect-rounds N      fresh processes for the GitHub-schema introspection (default 3; 0 skips it)
  --introspect-repeats N     repeated introspections per process (default 10)
  --query DOC                the small query (default '{ books { title } }')
  --peer CMD                 another MCP server command to measure beside ours (repeatable); {url} in
                             it is replaced by the GraphQL endpoint. 'npx -y PACKAGE ARGS' is measured
                             both through npx and with node on the package's bin, installed into
                             .bench/peers; any other command as given
  --peer-env NAME=VALUE      an environment variable for the last --peer ({url} replaced likewise)
  --peer-name NAME           its name in the table (default: the command)
  --peer-query-tool NAME     its query tool (default: found from tools/list)
  --peer-introspect-tool N   its introspection tool (default: found from tools/list)
  --api-process              serve the demo API from a process of its own (default: the bench's process,
                             which also sends the direct POSTs)
  --cpu-prof DIR             write a V8 CPU profile of our server under load to DIR, and summarise it
  --json FILE                write the raw figures to FILE
  --baseline REF             also build commit REF of this repository (into .bench/baseline) and measure
                             it beside this checkout's dist/cli.cjs in the same rounds: before and after
  --node PATH                the node binary to launch every subject with (default: the bench's own);
                             npx runs on it too, being first on PATH
  --no-npx                   skip the launches through npx (start-up with node only)
  -h, --help                 this text

Example: npm run bench -- --peer 'npx -y mcp-graphql@2.0.4' --peer-env 'ENDPOINT={url}' \\
           --peer-name mcp-graphql --baseline main`;

export class OptionsError extends Error {}

/** Reads the command line; throws OptionsError naming the option that is wrong. */
export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const quick = argv.includes('--quick');
  const options: BenchOptions = {
    rounds: quick ? 5 : 50,
    warmup: quick ? 50 : 200,
    calls: quick ? 300 : 2000,
    latencyRounds: quick ? 5 : 40,
    throughputCalls: quick ? 1000 : 4000,
    throughputRounds: quick ? 2 : 8,
    concurrency: 32,
    introspectRounds: quick ? 1 : 3,
    introspectRepeats: quick ? 5 : 10,
    query: '{ books { title } }',
    peers: [],
    apiProcess: false,
    node: process.execPath,
    npx: true,
    quick,
  };
  const lastPeer = (name: string): PeerSpec => {
    const peer = options.peers.at(-1);
    if (!peer) throw new OptionsError(`${name} must follow a --peer`);
    return peer;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--quick') continue;
    const eq = arg.indexOf('=');
    const name = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq > 0 && arg.startsWith('--')) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw new OptionsError(`${name} needs a value`);
      return next;
    };
    const count = (min: number): number => {
      const text = value();
      const n = Number(text);
      if (!Number.isInteger(n) || n < min) throw new OptionsError(`${name} must be an integer ≥ ${min}`);
      return n;
    };
    switch (name) {
      case '--rounds':
        options.rounds = count(1);
        break;
      case '--warmup':
        options.warmup = count(0);
        break;
      case '--calls':
        options.calls = count(1);
        break;
      case '--throughput-calls':
        options.throughputCalls = count(1);
        break;
      case '--concurrency':
        options.concurrency = count(1);
        break;
      case '--introspect-rounds':
        options.introspectRounds = count(0);
        break;
      case '--introspect-repeats':
        options.introspectRepeats = count(1);
        break;
      case '--query':
        options.query = value();
        break;
      case '--peer': {
        const command = value();
        options.peers.push({ name: command, command, env: {} });
        break;
      }
      case '--peer-env': {
        const pair = value();
        const at = pair.indexOf('=');
        if (at <= 0) throw new OptionsError('--peer-env must be NAME=VALUE');
        lastPeer(name).env[pair.slice(0, at)] = pair.slice(at + 1);
        break;
      }
      case '--peer-name':
        lastPeer(name).name = value();
        break;
      case '--peer-query-tool':
        lastPeer(name).queryTool = value();
        break;
      case '--peer-introspect-tool':
        lastPeer(name).introspectTool = value();
        break;
      case '--api-process':
        options.apiProcess = true;
        break;
      case '--cpu-prof':
        options.cpuProf = value();
        break;
      case '--json':
        options.json = value();
        break;
      case '--baseline':
        options.baseline = value();
        break;
      case '--node':
        options.node = value();
        break;
      case '--no-npx':
        options.npx = false;
        break;
      default:
        throw new OptionsError(`unknown option ${name}`);
    }
  }
  // Rounds never hold fewer than one call, and the split is even.
  options.latencyRounds = Math.min(options.latencyRounds, options.calls);
  options.throughputRounds = Math.min(options.throughputRounds, options.throughputCalls);
  return options;
}

/** Splits a command line into words, honouring single and double quotes and backslashes (no expansion). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new OptionsError(`unbalanced quote in the command: ${command}`);
  if (inWord) words.push(word);
  return words;
}
