// The search evaluation's tasks and schemas, shared by bench/search.ts (our ranking) and
// bench/search-embeddings.ts (what a sentence-embedding model would rank). A task is an everyday request on a
// real public schema that an npm package ships, asked as a few keywords and as a plain phrase, with the
// members that answer it (bench/search-tasks/*.json).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildSchema, introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { IntrospectedSchema, type SchemaView } from '../src/schema/view.ts';
import { loadGitHubSchema } from '../test/fixtures/github-schema.ts';

const TASKS_DIR = new URL('./search-tasks/', import.meta.url);
export const FORMS = ['keywords', 'phrase'] as const;
export type Form = (typeof FORMS)[number];

export interface Task {
  readonly id: string;
  readonly keywords: string;
  readonly phrase: string;
  readonly needs: readonly string[];
}

export interface TaskFile {
  readonly schema: string;
  readonly split: 'heldout' | 'heldout2' | 'heldout3' | 'tuning';
  readonly tasks: readonly Task[];
}

/**
 * The set nobody has looked into: written apart from the search, its misses never printed, and so the one the
 * targets are read on (heldout2's misses were read, and docs/benchmarks.md names them).
 */
export const UNSEEN: TaskFile['split'] = 'heldout3';

export const progress = (text: string) => process.stderr.write(`bench:search: ${text}\n`);
export const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

function nauticalSchema(): GraphQLSchema {
  const require = createRequire(import.meta.url);
  const file = require.resolve('@nautical-commerce/graphql-schema');
  return buildSchema(readFileSync(file, 'utf8'));
}

export const SCHEMAS: Record<string, { label: string; load: () => GraphQLSchema }> = {
  github: { label: "GitHub's (@octokit/graphql-schema)", load: () => loadGitHubSchema().schema },
  nautical: { label: "Nautical's (@nautical-commerce/graphql-schema)", load: nauticalSchema },
};

/** Every task file, or those of one split (`--split=NAME` on the command line). */
export function taskFiles(split?: string): TaskFile[] {
  return readdirSync(TASKS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(new URL(name, TASKS_DIR), 'utf8')) as TaskFile)
    .filter((file) => split === undefined || file.split === split);
}

/** The `--split=NAME` of the command line, if any. */
export function splitArgument(): string | undefined {
  return /^--split=(\w+)$/.exec(process.argv.find((arg) => arg.startsWith('--split=')) ?? '')?.[1];
}

/** Fails loudly when a task needs a member the schema does not have: a typo would count as a miss. */
export function checkNeeds(schema: GraphQLSchema, file: TaskFile): void {
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

export async function viewOf(schema: GraphQLSchema): Promise<SchemaView> {
  return new IntrospectedSchema(introspectionFromSchema(schema)).view(false);
}
