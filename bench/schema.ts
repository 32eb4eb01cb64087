// npm run bench:schema: the figures of large-schema reading on GitHub's public schema. The built dist/cli.cjs is driven
// over stdio by the MCP SDK client, against GitHub's schema served by graphql-js on 127.0.0.1: the size in
// characters and tokens of the overview, of a typical search and of a typical typeNames answer; whether every
// type can be read; and the time of a first and of a cached introspect (client round trip, median of several).
// Tokens are counted with gpt-tokenizer's o200k_base encoding (GPT-4o, GPT-5). Progress goes to stderr;
// stdout gets the results only.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer';
import { isIntrospectionType, isSpecifiedScalarType, printSchema } from 'graphql';
import { loadConfig } from '../src/config/load.ts';
import { secretsOf } from '../src/redaction/redactor.ts';
import { runIntrospect } from '../src/tools/introspect.ts';
import {
  introspectionRequests,
  loadGitHubSchema,
  serveGitHubSchema,
} from '../test/fixtures/github-schema.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../test/fixtures/mcp.ts';

const BUDGET = 40_000;
const TARGETS = { maxChars: BUDGET, overviewTokens: 10_000, callsToAnyType: 2, cachedMs: 5 };
const FIRST_ROUNDS = 5;
const CACHED_ROUNDS = 50;

const progress = (text: string) => process.stderr.write(`bench:schema: ${text}\n`);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const number = (n: number) => n.toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const check = (ok: boolean) => (ok ? 'ok' : 'MISSED');

/** The text of a call, failing loudly on an error result. */
function answerOf(result: CallToolResult): string {
  const all = texts(result);
  if (result.isError) throw new Error(`graphql_introspect failed: ${all[0]?.slice(0, 300)}`);
  return all.join('\n\n');
}

async function timed(
  session: McpSession,
  args: Record<string, unknown>,
): Promise<{ ms: number; text: string }> {
  const start = performance.now();
  const result = await session.call('graphql_introspect', args);
  const elapsed = performance.now() - start;
  return { ms: elapsed, text: answerOf(result) };
}

async function main(): Promise<void> {
  progress("loading GitHub's schema from @octokit/graphql-schema");
  const { schema } = loadGitHubSchema();
  const whole = printSchema(schema);
  const server = await serveGitHubSchema(schema);
  const args = [`--endpoint=${server.url}`, `--maxSchemaChars=${BUDGET}`];
  const lines: string[] = [];
  const out = (line = '') => lines.push(line);

  try {
    // Sizes of the typical answers.
    progress('measuring answers');
    const session = await startMcp(args);
    const answers: Array<[string, Record<string, unknown>]> = [
      ['overview (no typeNames, no search)', {}],
      ['search "pull request"', { search: 'pull request' }],
      ['search "repository issues"', { search: 'repository issues' }],
      ['typeNames ["Repository"]', { typeNames: ['Repository'] }],
      ['typeNames ["Repository.issues"]', { typeNames: ['Repository.issues'] }],
      ['typeNames ["Mutation"] (shortened)', { typeNames: ['Mutation'] }],
      ['overview with includeDeprecated', { includeDeprecated: true }],
    ];
    const sized: Array<{ label: string; chars: number; tokens: number }> = [];
    for (const [label, callArgs] of answers) {
      const { text } = await timed(session, callArgs);
      sized.push({ label, chars: text.length, tokens: countTokens(text) });
    }

    // Reach: every type read by one typeNames call naming it; every type found by searching its name.
    progress('reading every type by name');
    const printed = Object.values(schema.getTypeMap())
      .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
      .map((type) => type.name);
    let readInOne = 0;
    let largest = 0;
    let foundBySearch = 0;
    for (const name of printed) {
      const { text } = await timed(session, { typeNames: [name] });
      largest = Math.max(largest, text.length);
      if (new RegExp(`^(?:type|interface|union|enum|input|scalar) ${name}\\b`, 'm').test(text)) readInOne++;
      const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
      const search = await timed(session, { search: words });
      const first = /\n\n# (\S+)/.exec(search.text)?.[1];
      if (first === name || search.text.includes(`\n# ${name} (`)) foundBySearch++;
    }

    // Time of a cached introspect: the same session, calls repeated.
    progress('timing cached calls');
    const cached: Record<string, number[]> = { overview: [], search: [], typeNames: [] };
    const cachedArgs: Record<string, Record<string, unknown>> = {
      overview: {},
      search: { search: 'pull request' },
      typeNames: { typeNames: ['Repository'] },
    };
    for (let round = 0; round < CACHED_ROUNDS + 5; round++) {
      for (const [kind, callArgs] of Object.entries(cachedArgs)) {
        const { ms: elapsed } = await timed(session, callArgs);
        if (round >= 5) cached[kind]!.push(elapsed);
      }
    }
    const requestsBefore = introspectionRequests(server);
    await session.close();

    // Time of a first introspect: a new server each round, so nothing is cached.
    progress('timing first calls');
    const first: number[] = [];
    const firstSearch: number[] = [];
    const direct: number[] = [];
    for (let round = 0; round < FIRST_ROUNDS; round++) {
      const fresh = await startMcp(args);
      try {
        first.push((await timed(fresh, {})).ms);
        // The search index is built in the background after the first answer, as a model reads it.
        await new Promise((resolve) => setTimeout(resolve, 500));
        firstSearch.push((await timed(fresh, { search: 'pull request' })).ms);
      } finally {
        await fresh.close();
      }
      direct.push(await directIntrospection(server.url));
    }

    // Inside the process: how long the event loop is held at once while a first introspect is prepared.
    progress('measuring event-loop delay in-process');
    const stall = await longestStall(server.url);

    const overview = sized[0]!;
    out(
      "graphql_introspect on GitHub's public schema (@octokit/graphql-schema, served by graphql-js on 127.0.0.1)",
    );
    out(`whole schema: ${number(printed.length)} types, printSchema ${number(whole.length)} characters`);
    out(`budget: --maxSchemaChars=${number(BUDGET)}; tokens: gpt-tokenizer o200k_base`);
    out();
    out('answer                                  characters     tokens');
    for (const { label, chars, tokens } of sized) {
      out(`${label.padEnd(38)} ${number(chars).padStart(11)} ${number(tokens).padStart(10)}`);
    }
    out();
    out(`every type read by one typeNames call naming it: ${number(readInOne)} of ${number(printed.length)}`);
    out(`largest single-type answer: ${number(largest)} characters`);
    out(
      `types found by a search for their own name (split into words): ${number(foundBySearch)} of ${number(printed.length)}`,
    );
    out(`introspection requests for all the calls of one session above: ${number(requestsBefore)}`);
    out();
    out(`first introspect (new server, overview), median of ${FIRST_ROUNDS}: ${ms(median(first))}`);
    out(
      `  of which the test server's own introspection (direct POST from here), median: ${ms(median(direct))}`,
    );
    out(`first search after the overview, median of ${FIRST_ROUNDS}: ${ms(median(firstSearch))}`);
    out(`cached introspect, client round trip, median of ${CACHED_ROUNDS}:`);
    for (const [kind, values] of Object.entries(cached)) out(`  ${kind.padEnd(10)} ${ms(median(values))}`);
    out(`longest event-loop delay during a first introspect (in-process): ${ms(stall)}`);
    out();
    const largestAnswer = Math.max(...sized.map((answer) => answer.chars), largest);
    const slowestCached = Math.max(...Object.values(cached).map(median));
    out('targets');
    out(
      `  every output <= ${number(TARGETS.maxChars)} characters: ${number(largestAnswer)}  ${check(largestAnswer <= TARGETS.maxChars)}`,
    );
    out(
      `  overview <= ${number(TARGETS.overviewTokens)} tokens: ${number(overview.tokens)}  ${check(overview.tokens <= TARGETS.overviewTokens)}`,
    );
    const twoCalls = readInOne === printed.length && foundBySearch === printed.length;
    out(
      `  any type in at most ${TARGETS.callsToAnyType} calls (search by name, then typeNames): ${check(twoCalls)}`,
    );
    out(
      `  cached <= ${TARGETS.cachedMs} ms: ${ms(slowestCached)}  ${check(slowestCached <= TARGETS.cachedMs)}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await server.close();
  }
}

async function directIntrospection(url: string): Promise<number> {
  const { INTROSPECTION_QUERY } = await import('../src/schema/introspection.ts');
  const start = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: INTROSPECTION_QUERY }),
  });
  JSON.parse(await response.text());
  return performance.now() - start;
}

// The longest the event loop waited at once during a first overview and a first search, run in this
// process with a histogram watching. The endpoint sends a recorded introspection response, so that the time
// graphql-js takes to execute introspection (a test server's work, not ours) does not count.
async function longestStall(url: string): Promise<number> {
  const { INTROSPECTION_QUERY } = await import('../src/schema/introspection.ts');
  const recorded = await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: INTROSPECTION_QUERY }),
    })
  ).text();
  const replay = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(recorded);
    });
  });
  await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
  const { port } = replay.address() as AddressInfo;
  try {
    const loaded = loadConfig([`--endpoint=http://127.0.0.1:${port}/graphql`], {});
    if (loaded.kind !== 'serve') throw new Error('unexpected command');
    const apis = loaded.apis.map((config) => ({ config }));
    const tools = { apis, secrets: secretsOf(apis) };
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    await runIntrospect(tools, {});
    await runIntrospect(tools, { search: 'pull request' });
    histogram.disable();
    return histogram.max / 1e6;
  } finally {
    replay.closeAllConnections();
    await new Promise<void>((resolve) => replay.close(() => resolve()));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:schema: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
