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

// An operation tool's inputs are its variables, described as JSON Schema from the schema's types, so that a
// model fills them in as it would any tool's: scalars, enums with their values, input objects with their
// required fields, lists, defaults and descriptions.
//
// Only what the function-calling schemas of OpenAI, Anthropic and Gemini all accept (one client that forwards
// a schema one of them refuses breaks every call of a session; test/fixtures/model-schema-rules.ts holds the
// rules and their sources): one type per node; a nullable property as `anyOf` of its type and
// `{"type": "null"}`; array items of one type; no `additionalProperties`, `$ref` or `$defs`. Where that says
// less than GraphQL (a list's null items, an input object inside itself, a custom scalar, unknown fields),
// the variables are still coerced against the schema before anything is sent (load.ts).

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

const NULL: JsonSchema = { type: 'null' };

/** The JSON Schema of an operation's variables: an object with one property per variable. */
export function variablesSchema(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType | undefined;
    // Validation at start-up has made sure every variable's type exists.
    if (type === undefined) continue;
    const given = definition.defaultValue;
    properties[name] = propertySchema(type, new Set(), {
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
  said: { description?: string | null | undefined; default?: unknown },
): JsonSchema {
  const { description, ...value } = typeSchema(isNonNullType(type) ? type.ofType : type, seen);
  const property: JsonSchema = isNonNullType(type) ? value : { anyOf: [value, NULL] };
  const text = said.description || description;
  if (text) property.description = text;
  if (said.default !== undefined) property.default = said.default;
  return property;
}

/** `seen`: the input objects on the way here; one that contains itself is described, not expanded again. */
function typeSchema(type: GraphQLNullableType & GraphQLInputType, seen: ReadonlySet<string>): JsonSchema {
  // The items' own nullability is left unsaid: a union in `items` is what Gemini refuses.
  if (isListType(type)) {
    const item = type.ofType as GraphQLInputType;
    return { type: 'array', items: typeSchema(isNonNullType(item) ? item.ofType : item, seen) };
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
      properties[field.name] = propertySchema(field.type, inner, {
        description: field.description,
        default: field.defaultValue,
      });
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return described(objectSchema(properties, required));
  }
  // The built-in scalars' descriptions say only what their JSON type says.
  if (isScalarType(type) && SCALARS[type.name] !== undefined) return { ...SCALARS[type.name]! };
  // A custom scalar (DateTime, JSON, …): its value is written as a string, as its description says.
  return { type: 'string', description: description ?? `A ${type.name}` };
}

// Gemini refuses an empty `properties` and a `required` name it does not list.
function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    type: 'object',
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
  };
}
