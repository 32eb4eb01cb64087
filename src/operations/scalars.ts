// Custom scalars as JSON Schema, per API: what an operation tool publishes for a variable of a custom scalar,
// and what the server checks its value against before sending it (graphql-js lets anything through a scalar
// read from introspection). Well-known scalars have defaults; the operator may add or replace any; unknown
// scalars stay strings. No graphql-js here: the configuration checks the operator's map at start-up.
//
// A schema stays within the subset every model API accepts (test/fixtures/model-schema-rules.ts): one type per
// node, an `anyOf` only as a property's schema or an array's items (never directly in another), no
// `additionalProperties` or `$ref`. `format` is checked here but not published: Gemini takes only `date-time`
// (and `enum`), and the rules above take none.

import { jsonLengthAtLeast, nestsDeeperThan } from '../common/json-length.js';
import { thousands } from '../common/text.js';

export type JsonSchema = Record<string, unknown>;

/** A custom scalar's values. */
export interface ScalarType {
  /** Its JSON Schema; `format` in it is checked, not published. */
  readonly schema: JsonSchema;
  /** Any JSON value passes the check: more than the published schema can say (JSON's arrays of anything). */
  readonly anyValue?: boolean;
}

/** Each custom scalar with a schema, by name. */
export type Scalars = ReadonlyMap<string, ScalarType>;

/** The formats the check knows: a string's shape, and how a message names it. */
const FORMATS: Record<string, { readonly test: (text: string) => boolean; readonly said: string }> = {
  // RFC 3339, and the other forms of ISO 8601's extended format that APIs take (no seconds, no offset).
  'date-time': {
    test: (text) =>
      /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?([Zz]|[+-]([01]\d|2[0-3])(:?[0-5]\d)?)?$/.test(
        text,
      ),
    said: 'a date-time string such as 2024-05-01T12:30:00Z',
  },
  date: {
    test: (text) => /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(text),
    said: 'a date string such as 2024-05-01',
  },
  time: {
    test: (text) =>
      /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)?$/.test(text),
    said: 'a time string such as 12:30:00Z',
  },
  uuid: {
    test: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
    said: 'a UUID string such as 123e4567-e89b-12d3-a456-426614174000',
  },
  uri: { test: isAbsoluteUrl, said: 'an absolute URL string such as https://example.com/a' },
  email: {
    test: (text) => /^[^\s@]+@[^\s@]+$/.test(text),
    said: 'an email address string such as ada@example.com',
  },
  integer: { test: (text) => /^-?\d+$/.test(text), said: 'a string of digits such as "9007199254740993"' },
};

function isAbsoluteUrl(text: string): boolean {
  try {
    return new URL(text).protocol !== '';
  } catch {
    return false;
  }
}

const formatted = (format: string, description: string): JsonSchema => ({
  type: 'string',
  format,
  description,
});

/**
 * How many levels of arrays the JSON scalar's published schema types: `[[["x", 1]]]` fits it; an array nested
 * deeper does not (the server takes it all the same). Three holds GeoJSON's polygons and tables of rows.
 */
export const JSON_ARRAY_DEPTH = 3;

/**
 * Any JSON value as typed branches: `{}` would be the whole of it, but an untyped schema is what strict clients
 * refuse. An object is `{"type": "object"}`, whose members may be anything; an array's items are the same
 * branches and null, `levels` arrays deep, the innermost array's items every branch but another array.
 */
function anyJsonValue(levels: number): JsonSchema[] {
  const arrays =
    levels === 0
      ? []
      : [{ type: 'array', items: { anyOf: [...anyJsonValue(levels - 1), { type: 'null' }] } }];
  return [{ type: 'object' }, ...arrays, { type: 'string' }, { type: 'number' }, { type: 'boolean' }];
}

/** The well-known scalars (graphql-scalars, Hasura, graphql-java's extended scalars, …) and their values. */
export const DEFAULT_SCALARS: Scalars = new Map<string, ScalarType>([
  [
    'JSON',
    {
      // The check takes any JSON value, arrays nested deeper than the schema says included.
      schema: {
        anyOf: anyJsonValue(JSON_ARRAY_DEPTH),
        description: `Any JSON value: an object, an array (of any of these, nested up to ${JSON_ARRAY_DEPTH} deep), a string, a number or a boolean`,
      },
      anyValue: true,
    },
  ],
  ['JSONObject', { schema: { type: 'object', description: 'A JSON object' } }],
  ['DateTime', { schema: formatted('date-time', 'A date and time, RFC 3339, such as 2024-05-01T12:30:00Z') }],
  ['Date', { schema: formatted('date', 'A calendar date, YYYY-MM-DD, such as 2024-05-01') }],
  ['Time', { schema: formatted('time', 'A time of day, RFC 3339, such as 12:30:00Z') }],
  ['UUID', { schema: formatted('uuid', 'A UUID such as 123e4567-e89b-12d3-a456-426614174000') }],
  ['URL', { schema: formatted('uri', 'An absolute URL such as https://example.com/a') }],
  ['URI', { schema: formatted('uri', 'An absolute URI such as https://example.com/a') }],
  ['EmailAddress', { schema: formatted('email', 'An email address such as ada@example.com') }],
  ...(['BigInt', 'Long'] as const).map((name): [string, ScalarType] => [
    name,
    {
      // A string keeps every digit: a number past 2^53 loses its last ones in any JSON parser on the way.
      schema: {
        anyOf: [
          { type: 'string', format: 'integer', description: 'digits, for any size' },
          { type: 'integer', description: 'up to 2^53' },
        ],
        description:
          'A whole number of any size: a string of digits such as "9007199254740993" keeps every digit',
      },
    },
  ]),
]);

/** A custom scalar map that cannot be used: names the scalar and what is wrong. */
export class ScalarsError extends Error {
  override readonly name = 'ScalarsError';
}

/**
 * Most levels of objects and arrays a scalar's schema may nest (the default JSON's takes 13), and most characters
 * it may take as JSON: every tool input of the scalar publishes it whole, in the model's context on every turn.
 */
const MAX_SCALAR_SCHEMA = { levels: 32, chars: 16_384 } as const;

const BUILT_IN = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The scalars of an API: the defaults, with the operator's map (scalar name → JSON Schema) added over them. A
 * schema outside the portable subset, or one for a built-in scalar, is a ScalarsError naming the scalar.
 */
export function scalarTypes(given: Readonly<Record<string, unknown>> | undefined): Scalars {
  if (given === undefined || Object.keys(given).length === 0) return DEFAULT_SCALARS;
  const scalars = new Map(DEFAULT_SCALARS);
  for (const [name, schema] of Object.entries(given)) {
    if (!NAME.test(name))
      throw new ScalarsError(`${JSON.stringify(name.slice(0, 60))} is not a GraphQL name`);
    if (BUILT_IN.has(name)) throw new ScalarsError(`${name} is a built-in scalar, typed already`);
    // Before anything walks it: the checks below recurse, and a tool publishes the schema whole.
    if (nestsDeeperThan(schema, MAX_SCALAR_SCHEMA.levels)) {
      throw new ScalarsError(
        `${name}: its schema nests more than ${MAX_SCALAR_SCHEMA.levels} levels of objects and arrays, more than a scalar's schema may`,
      );
    }
    if (jsonLengthAtLeast(schema, MAX_SCALAR_SCHEMA.chars + 1)) {
      throw new ScalarsError(
        `${name}: its schema is longer than ${thousands(MAX_SCALAR_SCHEMA.chars)} characters as JSON, more than a scalar's schema may be (each tool input of it publishes it whole)`,
      );
    }
    const problem = portabilityProblem(schema, '', 'top');
    if (problem !== undefined) throw new ScalarsError(`${name}: ${problem}`);
    scalars.set(name, { schema: schema as JsonSchema });
  }
  return scalars;
}

/** The keywords every model API accepts (test/fixtures/model-schema-rules.ts), and `format`, kept to ourselves. */
const KEYWORDS = new Set([
  'type',
  'title',
  'description',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'enum',
  'anyOf',
  'default',
  'minimum',
  'maximum',
  'format',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/** Where a node sits: a scalar's own schema, an object's property or an array's items (unions allowed), a union's branch. */
type Place = 'top' | 'property' | 'branch' | 'items';

/** The first thing in `node` outside the portable subset, with where it is (a JSON pointer), or undefined. */
function portabilityProblem(node: unknown, pointer: string, place: Place): string | undefined {
  const at = (problem: string) => `${pointer === '' ? '' : `at ${pointer}, `}${problem}`;
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    return at('a schema must be a JSON object');
  const schema = node as JsonSchema;
  const unknown = Object.keys(schema).find((key) => !KEYWORDS.has(key));
  if (unknown !== undefined) {
    return at(
      `"${unknown.slice(0, 40)}" is not a keyword every model API accepts (${[...KEYWORDS].join(', ')})`,
    );
  }
  const { type, anyOf, items, properties, required } = schema;
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) {
    return at(`"type" must be one of ${[...TYPES].join(', ')} (one type, not a list)`);
  }
  if (type === undefined && anyOf === undefined) return at('a schema needs a "type" (or an "anyOf")');
  if (type === 'null' && place !== 'branch') return at('{"type": "null"} may only be a branch of an "anyOf"');
  if (anyOf !== undefined) {
    if (type !== undefined) return at('"anyOf" and "type" cannot both be given');
    if (place === 'branch') return at('an "anyOf" may not sit directly in another one');
    if (!Array.isArray(anyOf) || anyOf.length < 2) return at('"anyOf" must hold at least two schemas');
    if (anyOf.every((branch) => (branch as JsonSchema | null)?.type === 'null')) {
      return at('"anyOf" needs a branch other than null');
    }
    for (const [i, branch] of (anyOf as unknown[]).entries()) {
      const problem = portabilityProblem(branch, `${pointer}/anyOf/${i}`, 'branch');
      if (problem !== undefined) return problem;
    }
  }
  if (type === 'array' && (typeof items !== 'object' || items === null || Array.isArray(items))) {
    return at('an array needs "items": one schema');
  }
  if (items !== undefined) {
    if (type !== 'array') return at('"items" belongs to arrays only');
    const problem = portabilityProblem(items, `${pointer}/items`, 'items');
    if (problem !== undefined) return problem;
  }
  if ((properties !== undefined || required !== undefined) && type !== 'object') {
    return at('"properties" and "required" belong to objects only');
  }
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) {
      return at('"properties" must list at least one property');
    }
    for (const [name, property] of Object.entries(properties)) {
      const problem = portabilityProblem(property, `${pointer}/properties/${name}`, 'property');
      if (problem !== undefined) return problem;
    }
  }
  if (required !== undefined) {
    const defined = new Set(Object.keys((properties as object | undefined) ?? {}));
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string' || !defined.has(name))) {
      return at('"required" must be a list of names that "properties" defines');
    }
  }
  return valueProblem(schema, type, at);
}

/** What is wrong with the values of a node's keywords (enum, bounds, texts, format), if anything. */
function valueProblem(
  schema: JsonSchema,
  type: unknown,
  at: (problem: string) => string,
): string | undefined {
  if (
    schema.enum !== undefined &&
    (type !== 'string' ||
      !Array.isArray(schema.enum) ||
      schema.enum.length === 0 ||
      schema.enum.some((value) => typeof value !== 'string'))
  ) {
    return at('"enum" belongs to strings and must be a list of strings');
  }
  for (const key of ['minimum', 'maximum']) {
    if (
      schema[key] !== undefined &&
      ((type !== 'integer' && type !== 'number') || typeof schema[key] !== 'number')
    ) {
      return at(`"${key}" belongs to integers and numbers, as a number`);
    }
  }
  for (const key of ['minItems', 'maxItems']) {
    if (
      schema[key] !== undefined &&
      (type !== 'array' || !Number.isSafeInteger(schema[key]) || (schema[key] as number) < 0)
    ) {
      return at(`"${key}" belongs to arrays, as a whole number`);
    }
  }
  for (const key of ['description', 'title']) {
    if (schema[key] !== undefined && typeof schema[key] !== 'string') return at(`"${key}" must be a string`);
  }
  if (schema.format !== undefined && (type !== 'string' || !Object.hasOwn(FORMATS, String(schema.format)))) {
    return at(
      `"format" belongs to strings and must be one the server checks: ${Object.keys(FORMATS).join(', ')}`,
    );
  }
  return undefined;
}

/** The schema a tool publishes for a scalar: its own, without `format` (the check keeps it). */
export function publishedSchema(type: ScalarType): JsonSchema {
  return withoutFormat(type.schema);
}

function withoutFormat(schema: JsonSchema): JsonSchema {
  const published: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format') continue;
    if (key === 'anyOf') published.anyOf = (value as JsonSchema[]).map(withoutFormat);
    else if (key === 'items') published.items = withoutFormat(value as JsonSchema);
    else if (key === 'properties') {
      published.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [
          name,
          withoutFormat(property),
        ]),
      );
    } else published[key] = value;
  }
  return published;
}

/** Where a value does not fit and what was expected there; `path` is relative to the value (`.a[2]`), or ''. */
export interface Mismatch {
  readonly path: string;
  readonly expected: string;
  /** What was given instead, briefly: `"yesterday"`, `an array`. */
  readonly got: string;
}

/** Where `value` does not fit the scalar's schema, or undefined when it does. */
export function scalarMismatch(value: unknown, type: ScalarType): Mismatch | undefined {
  return type.anyValue === true ? undefined : mismatch(value, type.schema, '');
}

function mismatch(value: unknown, schema: JsonSchema, path: string): Mismatch | undefined {
  const wrong = (): Mismatch => ({ path, expected: expected(schema), got: brief(value) });
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[];
    return branches.some((branch) => mismatch(value, branch, path) === undefined) ? undefined : wrong();
  }
  switch (schema.type) {
    case 'null':
      return value === null ? undefined : wrong();
    case 'boolean':
      return typeof value === 'boolean' ? undefined : wrong();
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrong();
      if (schema.type === 'integer' && !Number.isInteger(value)) return wrong();
      if (typeof schema.minimum === 'number' && value < schema.minimum) return wrong();
      if (typeof schema.maximum === 'number' && value > schema.maximum) return wrong();
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return wrong();
      if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return wrong();
      const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
      return format === undefined || format.test(value) ? undefined : wrong();
    }
    case 'array': {
      if (!Array.isArray(value)) return wrong();
      if (typeof schema.minItems === 'number' && value.length < schema.minItems) return wrong();
      if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return wrong();
      const items = schema.items as JsonSchema | undefined;
      if (items === undefined) return undefined;
      for (const [i, item] of (value as unknown[]).entries()) {
        const found = mismatch(item, items, `${path}[${i}]`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrong();
      const object = value as Record<string, unknown>;
      for (const name of (schema.required as string[] | undefined) ?? []) {
        if (object[name] === undefined) return { path: `${path}.${name}`, expected: 'a value', got: 'none' };
      }
      for (const [name, property] of Object.entries(
        (schema.properties as Record<string, JsonSchema>) ?? {},
      )) {
        if (object[name] === undefined) continue;
        const found = mismatch(object[name], property, `${path}.${name}`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** What a schema asks for, in words: "a date-time string such as …", "an integer from 1 to 5", "a or b". */
function expected(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(expected).join(' or ');
  const range = (noun: string) => {
    const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
    if (minimum !== undefined && maximum !== undefined) return `${noun} from ${minimum} to ${maximum}`;
    if (minimum !== undefined) return `${noun} of at least ${minimum}`;
    if (maximum !== undefined) return `${noun} of at most ${maximum}`;
    return noun;
  };
  switch (schema.type) {
    case 'string': {
      if (Array.isArray(schema.enum))
        return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
      const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
      return format?.said ?? 'a string';
    }
    case 'integer':
      return range('an integer');
    case 'number':
      return range('a number');
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'a value';
  }
}

/** A value in a few characters, for a message: strings and numbers quoted, structures named. */
function brief(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
  return String(value);
}
