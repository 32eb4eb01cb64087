// npm run bench:search: how well graphql_introspect's search finds the member a task needs, and how fast.
// Tasks (bench/search-tasks/*.json) are everyday requests on two real public schemas that npm packages ship:
// GitHub's (@octokit/graphql-schema) and Nautical's marketplace API (@nautical-commerce/graphql-schema). Each
// is asked as a few keywords and as a plain phrase; a task is found at rank N when one of the members it needs
// is the Nth entry of the answer (or is named on it as "also on"). The held-out tasks were written before any
// change to the ranking and are never tuned on. Then the time a search takes once the index is built, and the
// time to build the index (and the longest the event loop waits meanwhile). Progress and, with --misses, the
// tasks not in the first five go to stderr; stdout gets the results only.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildSchema, introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { renderSearch } from '../src/schema/answers/search.ts';
import { buildSearchIndex, searchSchema, searchTerms, type SearchIndex } from '../src/schema/search.ts';
import { IntrospectedSchema, type SchemaView } from '../src/schema/view.ts';
import { loadGitHubSchema } from '../test/fixtures/github-schema.ts';
import { median, ms, quantile } from './stats.ts';

const TASKS_DIR = new URL('./search-tasks/', import.meta.url);
const FORMS = ['keywords', 'phrase'] as const;
type Form = (typeof FORMS)[number];
/** The targets, on GitHub's held-out tasks. */
const TARGETS = { keywordsTop5: 0.9, phraseTop5: 0.85, searchMs: 50 };
const TIMING_ROUNDS = 20;
const BUILD_ROUNDS = 5;
const BUDGET = 40_000;

interface Task {
  readonly id: string;
  readonly keywords: string;
  readonly phrase: string;
  readonly needs: readonly string[];
}

interface TaskFile {
  readonly schema: string;
  readonly split: 'heldout' | 'heldout2' | 'tuning';
  readonly tasks: readonly Task[];
}

const progress = (text: string) => process.stderr.write(`bench:search: ${text}\n`);
const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

function nauticalSchema(): GraphQLSchema {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@nautical-commerce/graphql-schema');
  return buildSchema(readFileSync(file, 'utf8'));
}

const SCHEMAS: Record<string, { label: string; load: () => GraphQLSchema }> = {
  github: { label: "GitHub's (@octokit/graphql-schema)", load: () => loadGitHubSchema().schema },
  nautical: { label: "Nautical's (@nautical-commerce/graphql-schema)", load: nauticalSchema },
};

function taskFiles(): TaskFile[] {
  return readdirSync(TASKS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, TASKS_DIR), 'utf8')) as TaskFile);
}

/** Fails loudly when a task needs a member the schema does not have: a typo would count as a miss. */
function checkNeeds(schema: GraphQLSchema, file: TaskFile): void {
  for (const task of file.tasks) {
    for (const need of task.needs) {
      const [typeName, member] = need.split('.');
      const type = schema.getType(typeName!);
      const fields = type !== undefined && 'getFields' in type ? type.getFields() : {};
      if (type === undefined || (member !== undefined && !(member in fields))) {
        throw new Error(`${file.schema} task ${task.id} needs ${need}, which the schema does not have`);
      }
    }
  }
}

/** The 1-based rank of the first entry that is (or is also on) a member the task needs; 0 if none. */
function rankOf(index: SearchIndex, text: string, needs: readonly string[]): { rank: number; top: string[] } {
  const { hits } = searchSchema(index, text, 40);
  const wanted = new Set(needs);
  const rank = hits.findIndex((hit) => {
    if (wanted.has(hit.coordinate)) return true;
    const member = hit.coordinate.includes('.') ? hit.coordinate.slice(hit.coordinate.indexOf('.')) : '';
    return hit.alsoOn.some((type) => wanted.has(`${type}${member}`) || wanted.has(type));
  });
  return { rank: rank + 1, top: hits.slice(0, 5).map((hit) => hit.coordinate) };
}

interface Score {
  tasks: number;
  top1: Record<Form, number>;
  top5: Record<Form, number>;
}

async function viewOf(schema: GraphQLSchema): Promise<SchemaView> {
  return new IntrospectedSchema(introspectionFromSchema(schema)).view(false);
}

/** Time to build the index (a fresh view each round, so nothing is reused) and the longest event-loop wait. */
async function timeBuild(schema: GraphQLSchema): Promise<{ build: number[]; stall: number }> {
  const introspection = introspectionFromSchema(schema);
  const build: number[] = [];
  let stall = 0;
  for (let round = 0; round < BUILD_ROUNDS; round++) {
    const view = await new IntrospectedSchema(introspection).view(false);
    void view.paths;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const start = performance.now();
    await buildSearchIndex(view);
    build.push(performance.now() - start);
    delay.disable();
    stall = Math.max(stall, delay.max / 1e6);
  }
  return { build, stall };
}

/** Time of one search once the index is built: the ranking and the answer's text, within the budget. */
function timeSearches(index: SearchIndex, schema: GraphQLSchema, texts: readonly string[]): number[] {
  const times: number[] = [];
  for (let round = 0; round < TIMING_ROUNDS + 2; round++) {
    for (const text of texts) {
      const start = performance.now();
      const terms = searchTerms(text);
      renderSearch(text, terms, searchSchema(index, text), BUDGET, schema);
      if (round >= 2) times.push(performance.now() - start);
    }
  }
  return times;
}

/** Scores one file's tasks on an index; with `showMisses`, the tasks not in the first five go to stderr. */
function scoreFile(index: SearchIndex, file: TaskFile, showMisses: boolean): Score {
  const score: Score = {
    tasks: file.tasks.length,
    top1: { keywords: 0, phrase: 0 },
    top5: { keywords: 0, phrase: 0 },
  };
  for (const task of file.tasks) {
    for (const form of FORMS) {
      const { rank, top } = rankOf(index, task[form], task.needs);
      if (rank === 1) score.top1[form]++;
      if (rank >= 1 && rank <= 5) score.top5[form]++;
      else if (showMisses) {
        progress(
          `miss ${file.schema}/${file.split} ${form} "${task[form]}" (needs ${task.needs.join(' or ')}; rank ${rank || '> 40'}): ${top.join(', ')}`,
        );
      }
    }
  }
  return score;
}

/** Two scores as one. */
function added(a: Score | undefined, b: Score): Score {
  if (a === undefined) return b;
  const sum = (x: Score['top1'], y: Score['top1']) => ({
    keywords: x.keywords + y.keywords,
    phrase: x.phrase + y.phrase,
  });
  return { tasks: a.tasks + b.tasks, top1: sum(a.top1, b.top1), top5: sum(a.top5, b.top5) };
}

interface Timings {
  readonly searches: readonly number[];
  readonly build: { readonly build: readonly number[]; readonly stall: number } | undefined;
}

async function main(): Promise<void> {
  const showMisses = process.argv.includes('--misses');
  const split = /^--split=(\w+)$/.exec(process.argv.find((arg) => arg.startsWith('--split=')) ?? '')?.[1];
  const files = taskFiles().filter((file) => split === undefined || file.split === split);
  const scores = new Map<string, Score>();
  let timings: Timings = { searches: [], build: undefined };
  const sizes: string[] = [];
  for (const [name, { label, load }] of Object.entries(SCHEMAS)) {
    progress(`loading ${label}`);
    const schema = load();
    const view = await viewOf(schema);
    const index = await buildSearchIndex(view);
    const counts = [view.types.length, index.items.length].map((n) => n.toLocaleString('en-US'));
    sizes.push(`${label}: ${counts[0]} types, ${counts[1]} types and members indexed`);
    const mine = files.filter((candidate) => candidate.schema === name);
    // The files of one split add up (tuning: the first round's and the second's).
    for (const file of mine) {
      checkNeeds(schema, file);
      const key = `${name} ${file.split}`;
      scores.set(key, added(scores.get(key), scoreFile(index, file, showMisses)));
    }
    if (name === 'github' && !process.argv.includes('--no-timing')) {
      progress('timing searches');
      const texts = mine.flatMap((file) => file.tasks.flatMap((task) => FORMS.map((form) => task[form])));
      const searches = timeSearches(index, schema, texts);
      progress('timing index builds');
      timings = { searches, build: await timeBuild(schema) };
    }
  }
  process.stdout.write(`${report(sizes, scores, timings).join('\n')}\n`);
}

function report(sizes: readonly string[], scores: ReadonlyMap<string, Score>, timings: Timings): string[] {
  const lines = [
    'Search evaluation: each task asked as keywords and as a phrase; found = a member it needs is among the first N entries',
    ...sizes.map((size) => `  ${size}`),
    '',
    '| schema | split | tasks | keywords top-1 | keywords top-5 | phrase top-1 | phrase top-5 |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [key, { tasks, top1, top5 }] of scores) {
    const [schema, split] = key.split(' ');
    const cells = FORMS.flatMap((form) => [percent(top1[form], tasks), percent(top5[form], tasks)]);
    lines.push(`| ${schema} | ${split} | ${tasks} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  const { searches, build } = timings;
  const p95 = quantile(searches, 0.95);
  if (searches.length > 0) {
    lines.push(
      `search on GitHub's schema once the index is built (ranking and the answer's text), ${searches.length} searches: median ${ms(median(searches))}, p95 ${ms(p95)}, slowest ${ms(Math.max(...searches))}`,
    );
  }
  if (build !== undefined) {
    lines.push(
      `index build on GitHub's schema, median of ${BUILD_ROUNDS}: ${ms(median(build.build))}; longest event-loop wait meanwhile: ${ms(build.stall)}`,
    );
  }
  // The targets are read on the tasks nobody tuned on: written apart from the search, never looked at for it.
  const held = scores.get('github heldout2');
  if (held !== undefined) {
    const check = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    const keywords = held.top5.keywords / held.tasks;
    const phrase = held.top5.phrase / held.tasks;
    lines.push(
      '',
      "targets (GitHub's schema, the tasks of heldout2, written apart from the search and never tuned on)",
      `  keywords top-5 >= ${percent(TARGETS.keywordsTop5, 1)}: ${percent(keywords, 1)}  ${check(keywords >= TARGETS.keywordsTop5)}`,
      `  phrase top-5 >= ${percent(TARGETS.phraseTop5, 1)}: ${percent(phrase, 1)}  ${check(phrase >= TARGETS.phraseTop5)}`,
    );
    if (searches.length > 0) {
      lines.push(`  search p95 < ${TARGETS.searchMs} ms: ${ms(p95)}  ${check(p95 < TARGETS.searchMs)}`);
    }
  }
  return lines;
}

await main();
