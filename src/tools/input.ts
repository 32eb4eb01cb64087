import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as z from './zod.js';
import { ordinal } from '../common/text.js';
import { ToolError } from '../common/errors.js';
import { isHeaderName } from '../http/headers.js';
import type { Api } from '../api/api.js';
import inputSchemas from './input-schemas.json' with { type: 'json' };

/** An object's JSON Schema, as tools/list shows a tool's inputs. */
interface ObjectJsonSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Record<string, unknown>>>;
  readonly required?: readonly string[];
}

/**
 * The built-in tools' inputs as tools/list advertises them, for a server of one API: made from their zod schemas
 * ahead of time (scripts/input-schemas.ts leaves out what a model need not see or an API refuses), so that no
 * start converts them again.
 */
export type BuiltInInputs = Readonly<
  Record<'graphql_query' | 'graphql_introspect' | 'graphql_confirm_mutation', ObjectJsonSchema>
>;
const BUILT_IN_INPUTS = inputSchemas as BuiltInInputs;

/**
 * The schema a built-in tool gives registerTool, as a Standard Schema: it advertises the tool's inputs, with
 * `api` where the server has several APIs (as withApiInput adds it) and without the inputs `omit` names, but
 * accepts any object, so that the tool itself validates against its zod schema and can answer INVALID_INPUT in
 * its own words instead of the SDK's.
 */
export function advertisedInputs(
  tool: keyof BuiltInInputs,
  apis: readonly Api[],
  omit: readonly string[] = [],
): AdvertisedSchema {
  const names = apis.length > 1 ? apis.map((api) => api.config.name) : [];
  const key = [tool, omit.join(','), ...names].join('\n');
  let schema = advertisedCache.get(key);
  if (schema === undefined) {
    const { properties, required, ...rest } = BUILT_IN_INPUTS[tool];
    const kept = Object.entries(properties).filter(([name]) => !omit.includes(name));
    if (names.length > 0)
      kept.push(['api', { type: 'string', enum: names, description: apiDescription(names) }]);
    schema = advertisedJson({
      ...rest,
      properties: Object.fromEntries(kept),
      ...(required !== undefined && { required: required.filter((name) => !omit.includes(name)) }),
    });
    advertisedCache.set(key, schema);
  }
  return schema;
}
// Remote mode builds a server per request: make each variant once.
const advertisedCache = new Map<string, AdvertisedSchema>();

/** A Standard Schema that lets every value through and describes itself as `jsonSchema`. */
export type AdvertisedSchema = StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;

/** `jsonSchema` as a Standard Schema whose validation lets every value through. */
export function advertisedJson(jsonSchema: Record<string, unknown>): AdvertisedSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'graphql-mcp',
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}

/** Validates a tool's arguments against its precise schema, or throws INVALID_INPUT naming each problem. */
export function parseInput<S extends z.ZodObject>(precise: S, args: unknown): z.output<S> {
  const given = withoutNulls((args ?? {}) as Record<string, unknown>);
  const result = precise.safeParse(given);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = Object.keys(precise.shape).join(', ');
      return `unknown input ${issue.keys.map((key) => JSON.stringify(key.slice(0, 60))).join(', ')} (the inputs are ${known})`;
    }
    const name = issue.path.length > 0 ? describePath(issue.path, given) : 'arguments';
    return `${name} ${issue.message}`;
  });
  throw new ToolError('INVALID_INPUT', problems.join('; '));
}

/** The inputs without those given as null: models often send null for an input they mean to leave out. */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  for (const key in args) {
    if (args[key] === null)
      return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
  }
  return args;
}

// A key of `headers` that is no header name may be a value pasted in the wrong place: named by position.
function describePath(path: readonly PropertyKey[], given: Record<string, unknown>): string {
  const [input, key] = path;
  if (input === 'headers' && typeof key === 'string' && !isHeaderName(key)) {
    const index = Object.keys(given.headers ?? {}).indexOf(key);
    return `headers: the value of the ${ordinal(index + 1)} header (its name is not shown: it is not a valid HTTP header name)`;
  }
  return path.map(String).join('.');
}

/**
 * `schema` with an `api` input (which of the server's APIs a call is for, the first by default) when there are
 * several APIs. Made once per schema and set of names: remote mode registers the tools on a server per request.
 */
export function withApiInput<S extends z.ZodObject>(schema: S, apis: readonly Api[]): S {
  if (apis.length === 1) return schema;
  const names = apis.map((api) => api.config.name);
  const key = names.join('\n');
  let byNames = apiSchemas.get(schema);
  if (byNames === undefined) apiSchemas.set(schema, (byNames = new Map()));
  let extended = byNames.get(key);
  if (extended === undefined) {
    const api = z
      .enum(names as [string, ...string[]], { error: `must be one of ${names.join(', ')}` })
      .describe(apiDescription(names))
      .optional();
    extended = schema.extend({ api });
    byNames.set(key, extended);
  }
  return extended as S;
}
const apiSchemas = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();

/** What the `api` input says of itself. */
const apiDescription = (names: readonly string[]) => `Which API; default: ${names[0]}`;

/** `endpoint`: an http(s) URL without user-info. */
export const endpointInput = z
  .string({ error: 'must be a string holding an http(s) URL' })
  .max(8_192, 'must be a URL of at most 8192 characters')
  .describe("GraphQL endpoint URL; default: the server's");

/** `headers`: an object of header names to values. */
export const headersInput = z
  .record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string (or a number or boolean)' }),
    {
      error: 'must be an object of header names to string values',
    },
  )
  .describe(
    'HTTP headers for this call, e.g. {"Authorization": "Bearer …"}; they replace startup headers of the same name',
  );
