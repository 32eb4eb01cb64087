import {
  buildClientSchema,
  getIntrospectionQuery,
  type GraphQLSchema,
  type IntrospectionQuery,
  type IntrospectionType,
} from 'graphql';
import { ToolError } from '../common/errors.js';
import { errorMessages } from '../graphql/response.js';

/** The full introspection query, with deprecated arguments and input fields and their reasons. */
export const INTROSPECTION_QUERY = getIntrospectionQuery({
  descriptions: true,
  inputValueDeprecation: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
});

/** For servers that predate the fields the full query asks for. */
export const BASIC_INTROSPECTION_QUERY = getIntrospectionQuery({ descriptions: true });

/** The introspection result within a GraphQL response, or undefined when there is none. */
export function introspectionOf(result: Record<string, unknown>): IntrospectionQuery | undefined {
  const data = result.data as { __schema?: unknown } | null | undefined;
  return typeof data?.__schema === 'object' && data.__schema !== null
    ? (data as IntrospectionQuery)
    : undefined;
}

/**
 * Whether errors concern the fields of INTROSPECTION_QUERY that servers before the 2021 specification lack
 * (deprecated arguments and input fields, specifiedByURL, isRepeatable): then the basic query may work.
 */
export function lacksNewerFields(result: Record<string, unknown>): boolean {
  return /includeDeprecated|isDeprecated|deprecationReason|specifiedBy|isRepeatable/i.test(
    errorMessages(result),
  );
}

/** Whether errors say that introspection is turned off (Apollo, GraphQL Armor, graphql-js rules, others). */
export function introspectionDisabled(result: Record<string, unknown>): boolean {
  const messages = errorMessages(result);
  return (
    /introspection/i.test(messages) &&
    /(not allowed|disabled|turned off|not permitted|forbidden|not available|blocked|disallowed|prohibited)/i.test(
      messages,
    )
  );
}

/**
 * The introspected schema as graphql-js objects, leaving out deprecated fields, arguments, input fields and enum
 * values unless asked.
 */
export function buildSchemaOf(introspection: IntrospectionQuery, includeDeprecated: boolean): GraphQLSchema {
  return readingSchema(() =>
    buildClientSchema(includeDeprecated ? introspection : withoutDeprecated(introspection)),
  );
}

/**
 * Runs `read` (building or printing an introspected schema), turning graphql-js's complaints about what the
 * endpoint sent into INVALID_RESPONSE.
 */
export function readingSchema<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError(
      'INVALID_RESPONSE',
      `the introspection result cannot be read as a schema: ${message.slice(0, 300)}`,
    );
  }
}

type WithDeprecation = { readonly isDeprecated?: boolean };
const current = <T extends WithDeprecation>(items: readonly T[] | null | undefined): T[] | undefined =>
  items?.filter((item) => item.isDeprecated !== true);

function withoutDeprecated(introspection: IntrospectionQuery): IntrospectionQuery {
  const schema = introspection.__schema;
  const types = schema.types.map((type): IntrospectionType => {
    switch (type.kind) {
      case 'OBJECT':
      case 'INTERFACE':
        return {
          ...type,
          fields: current(type.fields)!.map((field) => ({ ...field, args: current(field.args)! })),
        } as IntrospectionType;
      case 'INPUT_OBJECT':
        return { ...type, inputFields: current(type.inputFields)! };
      case 'ENUM':
        return { ...type, enumValues: current(type.enumValues)! };
      default:
        return type;
    }
  });
  const directives = schema.directives.map((directive) => ({ ...directive, args: current(directive.args)! }));
  return { __schema: { ...schema, types, directives } };
}
