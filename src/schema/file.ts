import { readFileSync } from 'node:fs';
import { cannotRead } from '../common/files.js';
import {
  buildASTSchema,
  buildClientSchema,
  GraphQLError,
  introspectionFromSchema,
  parse,
  Source,
  validateSchema,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { firstDefinitions } from './duplicates.js';
import { IntrospectedSchema } from './view.js';

// --schema: an API whose introspection is turned off (Apollo Server's default in production) can still be
// described to the model, and documents validated, from a file its operator has: SDL as printed by any
// GraphQL server or tool, or the JSON result of an introspection query.

/** A file that cannot be read as a schema: one line naming the file, and where in it when known. */
export class SchemaFileError extends Error {
  override readonly name = 'SchemaFileError';
}

/** A schema file as read: the schema, and a line for stderr about what was left out of it, if anything. */
export interface SchemaFile {
  readonly schema: IntrospectedSchema;
  readonly warning?: string;
}

/**
 * The schema in `path`: its introspection result (what graphql_introspect works from) and, from SDL, the schema
 * as built, with the directives it applies (@listSize, @cost). A name an SDL file defines twice is a warning (the
 * first definition is kept), not a refusal: published schemas have such slips (GitHub's does).
 */
export function readSchemaFile(path: string): SchemaFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SchemaFileError(cannotRead(path, error));
  }
  return path.toLowerCase().endsWith('.json') ? { schema: fromJson(path, text) } : fromSdl(path, text);
}

/** Most definitions left out that a warning names one by one. */
const NAMED_DUPLICATES = 10;

function fromSdl(path: string, text: string): SchemaFile {
  let schema: GraphQLSchema;
  let dropped: string[];
  try {
    const read = firstDefinitions(parse(new Source(text, path)));
    dropped = read.dropped;
    schema = buildASTSchema(read.document);
  } catch (error) {
    throw new SchemaFileError(`${located(path, error)}${JSON_ALTERNATIVE}`);
  }
  const problems = validateSchema(schema);
  if (problems.length > 0) throw new SchemaFileError(`${located(path, problems[0])}${JSON_ALTERNATIVE}`);
  const introspection = introspectionFromSchema(schema, {
    inputValueDeprecation: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
  });
  const named = dropped.slice(0, NAMED_DUPLICATES).join(', ');
  const more = dropped.length > NAMED_DUPLICATES ? ` and ${dropped.length - NAMED_DUPLICATES} more` : '';
  return {
    schema: new IntrospectedSchema(introspection, schema),
    ...(dropped.length > 0 && {
      warning: `${path}: ${dropped.length === 1 ? 'a definition repeats' : `${dropped.length} definitions repeat`} a name defined earlier in the file and ${dropped.length === 1 ? 'is' : 'are'} left out (the first definition of each name is the one used): ${named}${more}`,
    }),
  };
}

/** What ends the message of an SDL file that cannot be used: the other form of schema file, which always can. */
const JSON_ALTERNATIVE =
  '; an introspection result as JSON (--schema=schema.json, the answer to an introspection query) can be used instead';

function fromJson(path: string, text: string): IntrospectedSchema {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? `:${lineAndColumn(text, Number(position[1]))}` : '';
    throw new SchemaFileError(`${path}${where}: not valid JSON (${message.slice(0, 200)})`);
  }
  // An introspection result as a GraphQL response ({"data": {"__schema": …}}) or bare ({"__schema": …}).
  const data = (parsed as { data?: unknown } | null)?.data ?? parsed;
  const schema = (data as { __schema?: unknown } | null)?.__schema;
  if (typeof schema !== 'object' || schema === null) {
    throw new SchemaFileError(
      `${path}: not an introspection result (no "__schema" object, nor "data.__schema")`,
    );
  }
  const introspection = data as IntrospectionQuery;
  try {
    buildClientSchema(introspection);
  } catch (error) {
    throw new SchemaFileError(
      `${path}: not a usable introspection result (${String((error as Error).message).slice(0, 200)})`,
    );
  }
  return new IntrospectedSchema(introspection);
}

/**
 * `file:line:column: message` for a graphql-js error (the position in the source of the node it names, which
 * may be another file than `file`), or `file: message` for another error; `prefix` goes before the message.
 */
export function located(file: string, error: unknown, prefix = ''): string {
  if (!(error instanceof GraphQLError)) {
    return `${file}: ${prefix}${error instanceof Error ? error.message : String(error)}`;
  }
  const source = error.nodes?.[0]?.loc?.source ?? error.source;
  const at = error.locations?.[0];
  return `${source?.name ?? file}${at ? `:${at.line}:${at.column}` : ''}: ${prefix}${error.message}`;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}
