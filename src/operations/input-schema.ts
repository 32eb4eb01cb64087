import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  valueFromASTUntyped,
  type GraphQLInputType,
  type GraphQLNullableType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { publishedSchema, scalarMismatch, type JsonSchema, type Scalars } from './scalars.js';

// An operation tool's inputs are its variables, described as JSON Schema from the schema's types, so that a
// model fills them in as it would any tool's: scalars, enums with their values, input objects with their
// required fields, lists, defaults and descriptions.
//
// Only what the function-calling schemas of OpenAI, Anthropic and Gemini all accept (one client that forwards
// a schema one of them refuses breaks every call of a session; test/fixtures/model-schema-rules.ts holds the
// rules and their sources): one type per node; a nullable property as `anyOf` of its type and
// `{"type": "null"}`; array items typed (a union scalar's typed branches included); no `additionalProperties`,
// `$ref` or `$defs`. Where that says
// less than GraphQL (a list's null items, an input object inside itself, a custom scalar, unknown fields),
// the variables are still coerced against the schema before anything is sent (load.ts). A custom scalar is
// typed by the API's scalar map (scalars.ts), else a string.

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

const NULL: JsonSchema = { type: 'null' };
const NO_SCALARS: Scalars = new Map();

/**
 * The JSON Schema of an operation's variables: an object with one property per variable; `scalars` types the
 * custom scalars it names (the others are strings).
 */
export function variablesSchema(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  scalars: Scalars = NO_SCALARS,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    // Validation at start-up has made sure every variable's type exists.
    if (type === undefined) continue;
    const given = definition.defaultValue;
    properties[name] = propertySchema(type, new Set(), scalars, {
      default: given === undefined ? undefined : valueFromASTUntyped(given),
    });
    if (isNonNullType(type) && given === undefined) required.push(name);
  }
  return objectSchema(properties, required);
}

/**
 * A variable or input field: its type, its description (its own, else its type's) and default; null allowed
 * when GraphQL allows it, so that a model can send the null an operation tells apart from leaving it out.
 */
function propertySchema(
  type: GraphQLInputType,
  seen: ReadonlySet<string>,
  scalars: Scalars,
  said: { description?: string | null | undefined; default?: unknown },
): JsonSchema {
  const { description, ...value } = typeSchema(isNonNullType(type) ? type.ofType : type, seen, scalars);
  const property: JsonSchema = isNonNullType(type) ? value : nullable(value);
  const text = said.description || description;
  if (text) property.description = text;
  if (said.default !== undefined) property.default = said.default;
  return property;
}

/** A union with null; a scalar's own union (JSON's) takes null as one more branch, not as a union inside one. */
function nullable(value: JsonSchema): JsonSchema {
  if (!Array.isArray(value.anyOf)) return { anyOf: [value, NULL] };
  const branches = value.anyOf as JsonSchema[];
  return branches.some((branch) => branch.type === 'null') ? value : { ...value, anyOf: [...branches, NULL] };
}

/** `seen`: the input objects on the way here; one that contains itself is described, not expanded again. */
function typeSchema(
  type: GraphQLNullableType & GraphQLInputType,
  seen: ReadonlySet<string>,
  scalars: Scalars,
): JsonSchema {
  // The items' own nullability is left unsaid (graphql-js judges a null item); a scalar that is a union (JSON)
  // gives its items its typed branches.
  if (isListType(type)) {
    const item = type.ofType as GraphQLInputType;
    return { type: 'array', items: typeSchema(isNonNullType(item) ? item.ofType : item, seen, scalars) };
  }
  const description = type.description ?? undefined;
  const described = (schema: JsonSchema) => (description ? { ...schema, description } : schema);
  if (isEnumType(type)) {
    const values = type.getValues();
    const current = values.filter((value) => value.deprecationReason == null);
    // An enum whose values are all deprecated still takes them.
    const offered = current.length > 0 ? current : values;
    return described({ type: 'string', enum: offered.map((value) => value.name) });
  }
  if (isInputObjectType(type)) {
    if (seen.has(type.name)) {
      return {
        type: 'object',
        description: `A ${type.name} (as above)${description ? `: ${description}` : ''}`,
      };
    }
    const inner = new Set(seen).add(type.name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      properties[field.name] = propertySchema(field.type, inner, scalars, {
        description: field.description,
        default: field.defaultValue,
      });
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return described(objectSchema(properties, required));
  }
  // The built-in scalars' descriptions say only what their JSON type says.
  if (isScalarType(type) && SCALARS[type.name] !== undefined) return { ...SCALARS[type.name]! };
  const known = scalars.get(type.name);
  // A custom scalar without a schema: its value is written as a string, as its description says.
  if (known === undefined) return { type: 'string', description: description ?? `A ${type.name}` };
  // The API's own words first; the map's when the API says nothing (a message of the check says the rest).
  const { description: own, ...typed } = publishedSchema(known);
  return { ...typed, description: description ?? (typeof own === 'string' ? own : `A ${type.name}`) };
}

/**
 * Every variable value a scalar's schema refuses (the check graphql-js cannot make of a scalar read from
 * introspection), each naming the input, its path and what was expected: INVALID_INPUT messages.
 */
export function scalarProblems(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  values: Readonly<Record<string, unknown>>,
  scalars: Scalars,
): string[] {
  const problems: string[] = [];
  if (scalars.size === 0) return problems;
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    if (type !== undefined && values[name] !== undefined) {
      checkValue(type, values[name], name, scalars, problems);
    }
  }
  return problems;
}

/** Most problems one call reports. */
const MAX_PROBLEMS = 10;

function checkValue(
  type: GraphQLInputType,
  value: unknown,
  path: string,
  scalars: Scalars,
  problems: string[],
): void {
  // Null and the shape of lists and input objects are graphql-js's to judge (load.ts coerces first).
  if (value === null || value === undefined || problems.length >= MAX_PROBLEMS) return;
  if (isNonNullType(type)) return checkValue(type.ofType, value, path, scalars, problems);
  if (isListType(type)) {
    const item = type.ofType as GraphQLInputType;
    // A single value stands for a list of one, as GraphQL coerces it.
    if (!Array.isArray(value)) return checkValue(item, value, path, scalars, problems);
    for (const [i, element] of (value as unknown[]).entries()) {
      checkValue(item, element, `${path}[${i}]`, scalars, problems);
    }
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return;
    for (const field of Object.values(type.getFields())) {
      const given = (value as Record<string, unknown>)[field.name];
      if (given !== undefined) checkValue(field.type, given, `${path}.${field.name}`, scalars, problems);
    }
    return;
  }
  const known = isScalarType(type) ? scalars.get(type.name) : undefined;
  const wrong = known === undefined ? undefined : scalarMismatch(value, known);
  if (wrong !== undefined) {
    problems.push(
      `input "${path}${wrong.path}" must be ${wrong.expected} (a ${type.name}${wrong.path === '' ? '' : ` at "${path}"`}), not ${wrong.got}.`,
    );
  }
}

// Gemini refuses an empty `properties` and a `required` name it does not list.
function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    type: 'object',
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
  };
}
