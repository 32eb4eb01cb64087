import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  valueFromASTUntyped,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';

// An operation tool's inputs are its variables, described as JSON Schema from the schema's types, so that a
// model fills them in as it would any tool's: scalars, enums with their values, input objects with their
// required fields, lists, defaults and descriptions.

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

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
    const property = typeSchema(type, new Set());
    if (definition.defaultValue !== undefined)
      property.default = valueFromASTUntyped(definition.defaultValue);
    properties[name] = property;
    if (isNonNullType(type) && definition.defaultValue === undefined) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** `seen`: the input objects on the way here; one that contains itself is described, not expanded again. */
function typeSchema(type: GraphQLInputType, seen: ReadonlySet<string>): JsonSchema {
  if (isNonNullType(type)) return typeSchema(type.ofType, seen);
  if (isListType(type)) return { type: 'array', items: typeSchema(type.ofType, seen) };
  const description = type.description ?? undefined;
  const described = (schema: JsonSchema) => (description ? { ...schema, description } : schema);
  if (isEnumType(type)) {
    const values = type.getValues().filter((value) => value.deprecationReason == null);
    return described({ type: 'string', enum: values.map((value) => value.name) });
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
      const property = typeSchema(field.type, inner);
      if (field.description) property.description = field.description;
      if (field.defaultValue !== undefined) property.default = field.defaultValue;
      properties[field.name] = property;
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return described({
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    });
  }
  // The built-in scalars' descriptions say only what their JSON type says.
  if (isScalarType(type) && SCALARS[type.name] !== undefined) return { ...SCALARS[type.name]! };
  // A custom scalar (DateTime, JSON, …): its value is written as a string, as its description says.
  return { type: 'string', description: description ?? `A ${type.name}` };
}
