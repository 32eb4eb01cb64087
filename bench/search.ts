// npm run bench:search: how well graphql_introspect's search finds the member a task needs, and how fast.
// Tasks (bench/search-tasks/*.json) are everyday requests on two real public schemas that npm packages ship:
// GitHub's (@octokit/graphql-schema) and Nautical's marketplace API (@nautical-commerce/graphql-schema). Each
// is asked as a few keywords and as a plain phrase; a task is found at rank N when one of the members it needs
// is the Nth entry of the answer (or is named on it as "also on"). The held-out tasks were written apart from
// the search and are never tuned on; the unseen set's misses are never printed. Then the time a search takes
// once the index is built, and the time to build the index (and the longest the event loop waits meanwhile).
// Progress and, with --misses, the tasks not in the first five go to stderr; stdout gets the results only.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { renderSearch } from '../src/schema/answers/search.ts';
import { buildSearchIndex, searchSchema, searchTerms, type SearchIndex } from '../src/schema/search.ts';
import { IntrospectedSchema } from '../src/schema/view.ts';
import {
  checkNeeds,
  FORMS,
  percent,
  progress,
  SCHEMAS,
  splitArgument,
  taskFiles,
  viewOf,
  UNSEEN,
  type Form,
  type TaskFile,
} from './search-eval.ts';
import { median, ms, quantile } from './stats.ts';

/** The targets, on GitHub's held-out tasks. */
const TARGETS = { keywordsTop5: 0.9, phraseTop5: 0.85, searchMs: 50 };
const TIMING_ROUNDS = 20;
const BUILD_ROUNDS = 5;
const BUDGET = 40_000;

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
  const files = taskFiles(splitArgument());
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
      const misses = showMisses && file.split !== UNSEEN;
      scores.set(key, added(scores.get(key), scoreFile(index, file, misses)));
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
  const held = scores.get(`github ${UNSEEN}`);
  if (held !== undefined) {
    const check = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    const keywords = held.top5.keywords / held.tasks;
    const phrase = held.top5.phrase / held.tasks;
    lines.push(
      '',
      `targets (GitHub's schema, the tasks of ${UNSEEN}, written apart from the search, its misses never read)`,
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
