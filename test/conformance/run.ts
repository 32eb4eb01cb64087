// `npm run test:conformance`: the official MCP conformance suite against the built server in remote mode.
// Serves the demo library API on 127.0.0.1, starts dist/cli.cjs with --transport=http on a free port of
// 127.0.0.1, and runs one conformance scenario after another against its /mcp. The suite needs Node 22,
// which npx fetches as the npm package node@22 (the registry must be reachable; nothing else leaves
// 127.0.0.1). Scenarios may be named on the command line; by default the generic ones of both eras.
// Exit code: 0 when every scenario passed, 1 otherwise.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveGraphQL } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp } from '../fixtures/http-mcp.ts';

const SUITE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const NODE = 'node@22';
/** The 2025 scenarios (initialize handshake) and the 2026-07-28 ones (server/discover, no session). */
const DEFAULT_SCENARIOS = [
  'server-initialize',
  'tools-list',
  'dns-rebinding-protection',
  'server-stateless',
  'caching',
  'http-header-validation',
];
/** Checks that cannot pass against a server with only our two tools, each with its reason. */
const EXPECTED_FAILURES = fileURLToPath(new URL('./expected-failures.yaml', import.meta.url));
/** The first run downloads Node 22 and the suite; later ones come from npx's cache. */
const SCENARIO_TIMEOUT_MS = 300_000;

interface Outcome {
  readonly scenario: string;
  readonly status: 'passed' | 'failed' | 'error';
  /** "Passed: 1/1, 0 failed, 0 warnings", or why it could not run. */
  readonly summary: string;
  readonly failedChecks: string[];
}

/** Runs one scenario through npx, echoing its output; resolves with the exit code and the output. */
function runScenario(url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npx',
      [
        ...['-y', '-p', NODE, '-p', SUITE, '--', 'conformance', 'server'],
        ...['--url', url, '--scenario', scenario, '--expected-failures', EXPECTED_FAILURES],
      ],
      // Its own process group, so that a stuck run is ended whole (npx → node → the suite) by its PID.
      { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let output = '';
    const echo = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      // npm's warnings about this machine's npm configuration are noise here.
      const shown = text
        .split('\n')
        .filter((line) => !line.startsWith('npm warn'))
        .join('\n');
      process.stdout.write(shown);
    };
    child.stdout.on('data', echo);
    child.stderr.on('data', echo);
    const timer = setTimeout(() => {
      output += `\n(no result within ${SCENARIO_TIMEOUT_MS} ms: stopped)\n`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, SCENARIO_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function outcomeOf(scenario: string, code: number | null, output: string): Outcome {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const summary = /Passed: \d+\/\d+[^\n]*/.exec(plain)?.[0];
  const failedChecks = plain
    .split('\n')
    .filter((line) => /\bFAILURE\b/.test(line))
    .map((line) => line.replace(/^\S+\s+/, '').trim());
  if (summary === undefined) {
    const last = plain.trim().split('\n').filter(Boolean).at(-1) ?? `exit code ${code}`;
    return { scenario, status: 'error', summary: `did not run: ${last}`, failedChecks };
  }
  return { scenario, status: code === 0 ? 'passed' : 'failed', summary, failedChecks };
}

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_SCENARIOS;
const library = createLibraryApi();
const api = await serveGraphQL(library.schema, library.rootValue);
const server = await startHttpMcp([`--endpoint=${api.url}`]);
const outcomes: Outcome[] = [];
try {
  process.stdout.write(`graphql-mcp at ${server.url} (pid ${server.pid}), demo API at ${api.url}\n`);
  for (const scenario of scenarios) {
    process.stdout.write(`\n=== ${scenario}\n`);
    const { code, output } = await runScenario(server.url, scenario);
    outcomes.push(outcomeOf(scenario, code, output));
  }
} finally {
  await server.stop();
  await api.close();
}

process.stdout.write(`\n=== Conformance (${SUITE}) against graphql-mcp in HTTP mode\n`);
for (const { scenario, status, summary, failedChecks } of outcomes) {
  process.stdout.write(`${status.toUpperCase().padEnd(7)} ${scenario.padEnd(26)} ${summary}\n`);
  // A passed scenario's failed checks are the ones expected-failures.yaml lists, with its reasons.
  const label = status === 'passed' ? 'expected' : 'FAILED';
  for (const check of failedChecks) process.stdout.write(`        ${label}: ${check}\n`);
}
process.exitCode = outcomes.every((outcome) => outcome.status === 'passed') ? 0 : 1;
