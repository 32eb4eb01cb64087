import {
  getNamedType,
  getVariableValues,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  validate,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { AnalysedDocument } from './operation.js';

// A model that misspells a field after reading the schema would otherwise have its query sent, and many
// servers answer without suggestions (Apollo's hideSchemaDetailsFromClientErrors, GraphQL Armor, GitHub) or
// without the valid names (PostGraphile). When the endpoint's schema is known, graphql-js checks the document
// and its variables first, and each error is given with the names that would have been right.

/** Errors reported in full; more are counted. */
const MAX_ERRORS = 10;
/** Names listed per hint; more are counted. */
const MAX_NAMES = 40;

/**
 * The problems of `operation`'s document and variables against `schema`, one string each with its line and
 * column and what would be valid; empty when there are none (or the schema itself cannot validate).
 */
export function validateDocument(
  schema: GraphQLSchema,
  analysed: AnalysedDocument,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): string[] {
  let errors: readonly GraphQLError[];
  try {
    errors = documentErrors(schema, analysed);
    if (errors.length === 0) {
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, {
        maxErrors: MAX_ERRORS + 1,
      });
      errors = coerced.errors ?? [];
    }
  } catch {
    // A schema an endpoint sent may not be valid enough to validate against: the endpoint will judge.
    return [];
  }
  // graphql-js ends its list with "Too many validation errors" when it stops early.
  const real = errors.filter((error) => !/^Too many (validation )?errors/.test(error.message));
  const described = real.slice(0, MAX_ERRORS).map((error) => describe(schema, error));
  if (real.length > MAX_ERRORS) described.push(`… and more errors`);
  return described;
}

// A model runs the same document again and again (paging, other variables): it is validated once per schema.
const validated = new WeakMap<AnalysedDocument, WeakMap<GraphQLSchema, readonly GraphQLError[]>>();

function documentErrors(schema: GraphQLSchema, analysed: AnalysedDocument): readonly GraphQLError[] {
  let bySchema = validated.get(analysed);
  if (bySchema === undefined) validated.set(analysed, (bySchema = new WeakMap()));
  let errors = bySchema.get(schema);
  if (errors === undefined) {
    errors = validate(schema, analysed.document, undefined, { maxErrors: MAX_ERRORS + 1 });
    bySchema.set(schema, errors);
  }
  return errors;
}

/** Hints (valid names) for error messages an endpoint sent, when its schema is known. */
export function hintsForMessages(schema: GraphQLSchema, messages: readonly string[]): string[] {
  const hints = new Set<string>();
  for (const message of messages.slice(0, MAX_ERRORS)) {
    const hint = validNames(schema, message);
    if (hint !== undefined) hints.add(hint);
  }
  return [...hints];
}

function describe(schema: GraphQLSchema, error: GraphQLError): string {
  const where = error.locations?.[0];
  const at = where === undefined ? '' : ` (line ${where.line}, column ${where.column})`;
  const hint = validNames(schema, error.message);
  return `${error.message}${at}${hint === undefined ? '' : ` ${hint}`}`;
}

/** The valid names for the member a message says is unknown, e.g. `Fields of Book: id, title, …`. */
function validNames(schema: GraphQLSchema, message: string): string | undefined {
  let match = /Cannot query field "[^"]*" on type "([^"]+)"/.exec(message);
  if (match !== null) return fieldsOf(schema, match[1]!);
  match = /Field "[^"]*" of type "([^"]+)" must have a selection of subfields/.exec(message);
  if (match !== null) return fieldsOf(schema, match[1]!.replace(/[[\]!]/g, ''));
  match = /Unknown argument "[^"]*" on field "([^".]+)\.([^"]+)"/.exec(message);
  if (match !== null) {
    const type = schema.getType(match[1]!);
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[match[2]!] : undefined;
    if (field === undefined) return undefined;
    return list(
      `Arguments of ${match[1]}.${match[2]}`,
      field.args.map((arg) => `${arg.name}: ${String(arg.type)}`),
    );
  }
  match =
    /Field "[^"]*" is not defined by type "([^"]+)"/.exec(message) ??
    /Expected type "([^"]+)" to be an object/.exec(message);
  if (match !== null) {
    const type = schema.getType(match[1]!);
    if (!isInputObjectType(type)) return undefined;
    const fields = Object.values(type.getFields()).map((field) => `${field.name}: ${String(field.type)}`);
    return list(`Fields of ${type.name}`, fields);
  }
  match =
    /Value "[^"]*" does not exist in "([^"]+)" enum/.exec(message) ??
    /Enum "([^"]+)" cannot represent/.exec(message);
  if (match !== null) {
    const type = schema.getType(match[1]!);
    if (!isEnumType(type)) return undefined;
    // Deprecated values still work, but are not worth suggesting.
    const values = type.getValues().filter((value) => value.deprecationReason == null);
    return list(
      `Values of ${type.name}`,
      values.map((value) => value.name),
    );
  }
  return undefined;
}

function fieldsOf(schema: GraphQLSchema, typeName: string): string | undefined {
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInterfaceType(type)) return undefined;
  const fields = Object.values(type.getFields()).map((field) => {
    return isCompositeType(getNamedType(field.type)) ? `${field.name} {…}` : field.name;
  });
  return list(`Fields of ${typeName}`, fields);
}

function list(title: string, names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES).join(', ');
  const more = names.length > MAX_NAMES ? `, … ${names.length - MAX_NAMES} more` : '';
  return `${title}: ${shown}${more}.`;
}
