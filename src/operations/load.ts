import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import {
  getVariableValues,
  Kind,
  parse,
  print,
  Source,
  TokenKind,
  validate,
  visit,
  type DefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { ToolError } from '../common/errors.js';
import { cannotRead, filesAt } from '../common/files.js';
import { measureComplexity } from '../graphql/complexity.js';
import { analyseDocument, type AnalysedDocument } from '../graphql/operation.js';
import { located } from '../schema/file.js';
import { hintsForMessages } from '../graphql/validate.js';
import type { PersistedDocument } from '../http/persisted.js';
import { scalarProblems, variablesSchema } from './input-schema.js';
import { readManifest, type ManifestOperation } from './manifest.js';
import { DEFAULT_SCALARS, type Scalars } from './scalars.js';

// --operations: the operator's own GraphQL operations, each named one a tool with typed inputs. Everything is
// checked at start-up (and on each reload): every file parses, every operation validates against the schema
// and is within --maxComplexity, names are unique and allowed; any failure is one line naming the file.

/** Names the built-in tools hold; an operation may not take them. */
const RESERVED = new Set(['graphql_query', 'graphql_introspect']);
/** MCP tool names: 1 to 128 of these characters (GraphQL names always are, but may be longer). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const EXTENSIONS = new Set(['.graphql', '.gql', '.json']);

/** A problem with the operation files: one line, naming the file (and line and column when known). */
export class OperationsError extends Error {
  override readonly name = 'OperationsError';
}

/** An operation from the operator's files: its document (with the fragments it uses), analysed. */
export interface FixedOperation {
  readonly name: string;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  /** Whether the user confirms it before it runs (a mutation not marked as needing no question). */
  readonly confirm: boolean;
  /** The trusted document it comes from (a manifest's), sent by id where the API takes ids. */
  readonly persisted?: PersistedDocument;
}

/** One operation tool. */
export interface OperationTool extends FixedOperation {
  readonly name: string;
  readonly description: string;
  readonly kind: 'query' | 'mutation';
  /** The tool's input schema: the operation's variables as JSON Schema. */
  readonly inputSchema: Record<string, unknown>;
  /** Where it was written, for messages: `ops/books.graphql:3`. */
  readonly where: string;
  /** The operation and the fragments it uses, printed on several lines, for people to read. */
  readonly source: string;
}

/** What loading the files gave: the tools, and the mutations left out under --readOnly. */
export interface OperationSet {
  readonly tools: readonly OperationTool[];
  readonly skipped: readonly string[];
  /**
   * The tool's arguments as the operation's variables, coerced against the schema, or the problems, each
   * naming the variable (and the valid names, e.g. of an enum).
   */
  variablesOf(tool: OperationTool, args: Record<string, unknown>): Record<string, unknown>;
}

export interface LoadOptions {
  readonly schema: GraphQLSchema;
  readonly maxComplexity: number;
  readonly readOnly: boolean;
  /** Describes the endpoint in generated descriptions. */
  readonly endpointName: string;
  /** The API's custom scalars, typed for the inputs and their check (scalars.ts). @default DEFAULT_SCALARS */
  readonly scalars?: Scalars;
}

/** Reads, checks and turns into tools every named operation in these files and directories. */
export function loadOperations(paths: readonly string[], options: LoadOptions): OperationSet {
  const files = paths.flatMap((path) => filesAt(path, EXTENSIONS, (message) => new OperationsError(message)));
  if (files.length === 0) {
    throw new OperationsError(`${paths.join(', ')}: no .graphql or .gql files or .json manifests found`);
  }
  const { operations, fragments, skipped } = readDefinitions(files, paths);
  const tools: OperationTool[] = [];
  const names = new Map<string, string>();
  const scalars = options.scalars ?? DEFAULT_SCALARS;
  for (const written of operations) {
    const { node, manifest } = written;
    const name = node.name!.value;
    const where = manifest?.where ?? `${written.file}:${node.loc?.startToken.line ?? 1}`;
    const known = names.get(name);
    if (known !== undefined)
      throw new OperationsError(`${where}: the operation name ${name} is used twice (also at ${known})`);
    names.set(name, where);
    const tool = toolOf(written, where, manifest?.fragments ?? fragments, { ...options, scalars });
    if (tool.kind === 'mutation' && options.readOnly) {
      skipped.push(`${name} (${where}) is a mutation: left out under --readOnly`);
      continue;
    }
    tools.push(tool);
  }
  return { tools, skipped, variablesOf: (tool, args) => coerce(options.schema, tool, args, scalars) };
}

/** An operation as written: in a file, or in a manifest (with its own fragments and trusted document). */
interface WrittenOperation {
  readonly node: OperationDefinitionNode;
  readonly file: string;
  readonly manifest?: ManifestOperation;
}

type Fragments = ReadonlyMap<string, { readonly node: FragmentDefinitionNode; readonly file?: string }>;

/** Every operation and fragment of the files, and the manifest entries left out. */
function readDefinitions(
  files: readonly string[],
  paths: readonly string[],
): { operations: WrittenOperation[]; fragments: Fragments; skipped: string[] } {
  const operations: WrittenOperation[] = [];
  const fragments = new Map<string, { node: FragmentDefinitionNode; file: string }>();
  const skipped: string[] = [];
  // Each trusted document's id, with where it is first: sent by id, two documents of one id are one to the API.
  const ids = new Map<string, { readonly file: string; readonly where: string }>();
  for (const file of files) {
    const text = readText(file);
    if (extname(file).toLowerCase() === '.json') {
      const manifest = readManifest(file, text, paths.includes(file), (line) => new OperationsError(line));
      for (const operation of manifest.operations) {
        const { id } = operation.persisted;
        const first = ids.get(id);
        if (first !== undefined && first.file !== file) {
          throw new OperationsError(
            `${operation.where}: the id ${JSON.stringify(id.length > 16 ? `${id.slice(0, 12)}…` : id)} is also the id of ${first.where}; an API runs one document for an id, so each needs its own (or each manifest given once)`,
          );
        }
        if (first === undefined) ids.set(id, { file, where: operation.where });
        operations.push({ node: operation.node, file, manifest: operation });
      }
      skipped.push(...manifest.skipped);
      continue;
    }
    let definitions: readonly DefinitionNode[];
    try {
      definitions = parse(new Source(text, file)).definitions;
    } catch (error) {
      throw new OperationsError(located(file, error));
    }
    for (const node of definitions) {
      const line = `${file}:${node.loc?.startToken.line ?? 1}`;
      if (node.kind === 'FragmentDefinition') {
        const known = fragments.get(node.name.value);
        if (known !== undefined) {
          throw new OperationsError(
            `${line}: fragment ${node.name.value} is defined twice (also in ${known.file})`,
          );
        }
        fragments.set(node.name.value, { node, file });
      } else if (node.kind === 'OperationDefinition') {
        if (node.name === undefined) {
          throw new OperationsError(
            `${line}: an operation without a name; name it (e.g. query GetBook { … }) to make it a tool`,
          );
        }
        operations.push({ node, file });
      } else {
        throw new OperationsError(
          `${line}: only operations and fragments belong in operation files, not ${node.kind}`,
        );
      }
    }
  }
  return { operations, fragments, skipped };
}

/** One operation as a tool, checked: its name, against the schema, within --maxComplexity. */
function toolOf(
  { node, file, manifest }: WrittenOperation,
  where: string,
  fragments: Fragments,
  options: LoadOptions & { readonly scalars: Scalars },
): OperationTool {
  const name = node.name!.value;
  if (node.operation === 'subscription') {
    throw new OperationsError(`${where}: ${name} is a subscription, which a tool cannot serve`);
  }
  if (RESERVED.has(name)) throw new OperationsError(`${where}: ${name} is the name of a built-in tool`);
  if (!TOOL_NAME.test(name)) {
    throw new OperationsError(
      `${where}: ${name} is longer than the 128 characters MCP allows in a tool name`,
    );
  }
  const used = fragmentsUsedBy(node, fragments, where);
  const errors = validate(options.schema, { kind: 'Document', definitions: [node, ...used] } as never);
  if (errors.length > 0) throw new OperationsError(located(file, errors[0]!, `${name}: `));
  const printed = [node, ...used].map((definition) => print(definition));
  const document = analyseDocument(printed.join('\n'));
  const operation = document.operations[0]!;
  if (options.maxComplexity > 0) {
    const complexity = measureComplexity(document, operation, options.maxComplexity);
    if (complexity.value > options.maxComplexity) {
      throw new OperationsError(
        `${where}: ${name} selects ${complexity.atLeast ? 'at least ' : ''}${complexity.value} fields, more than --maxComplexity (${options.maxComplexity})`,
      );
    }
  }
  const comments = commentsAbove(node);
  return {
    name,
    description: describe(node, comments, options),
    kind: node.operation,
    confirm: node.operation === 'mutation' && !comments.some((line) => NO_CONFIRM.test(line)),
    inputSchema: variablesSchema(options.schema, node.variableDefinitions ?? [], options.scalars),
    where,
    source: printed.join('\n\n'),
    document,
    operation,
    persisted: manifest?.persisted,
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new OperationsError(cannotRead(file, error));
  }
}

/** The fragments an operation spreads, directly or through other fragments, each once. */
function fragmentsUsedBy(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, { node: FragmentDefinitionNode }>,
  where: string,
): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: Array<OperationDefinitionNode | FragmentDefinitionNode> = [operation];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        const fragment = fragments.get(name)?.node;
        if (fragment === undefined)
          throw new OperationsError(`${where}: the fragment ${name} is not defined in any operation file`);
        used.set(name, fragment);
        pending.push(fragment);
      },
    });
  }
  return [...used.values()];
}

/**
 * The marker of a mutation that runs without asking the user, a comment line directly above it: its author
 * vouches for it (an idempotent upsert, a harmless toggle).
 */
const NO_CONFIRM = /^graphql-mcp:\s*no-confirm$/i;

/**
 * The comments directly above an operation, without their `#`: the comment tokens graphql-js's lexer read just
 * before the operation's first token, each on a line of its own, one line after another up to the operation's.
 * Read from the tokens, not the text: a `#` inside a block string is no comment, and a comment above one
 * operation never reaches another written after it on the same line.
 */
function commentsAbove(node: OperationDefinitionNode): string[] {
  const comments: string[] = [];
  let line = node.loc?.startToken.line ?? 0;
  for (let token = node.loc?.startToken.prev; token?.kind === TokenKind.COMMENT; token = token.prev) {
    const ownLine = token.prev === null || token.prev.line < token.line;
    if (!ownLine || token.line !== line - 1) break;
    comments.unshift((token.value ?? '').trim());
    line = token.line;
  }
  return comments;
}

/**
 * The tool's description: the comment lines directly above the operation (but a marker), else what the schema
 * says of the root fields it selects.
 */
function describe(node: OperationDefinitionNode, comments: readonly string[], options: LoadOptions): string {
  const written = comments.filter((line) => line !== '' && !NO_CONFIRM.test(line)).join(' ');
  if (written !== '') return written;
  const root =
    node.operation === 'mutation' ? options.schema.getMutationType() : options.schema.getQueryType();
  const said = node.selectionSet.selections.flatMap((selection) => {
    if (selection.kind !== 'Field' || root === null || root === undefined) return [];
    const field = root.getFields()[selection.name.value];
    return field?.description ? [field.description.trim()] : [];
  });
  const kind = node.operation === 'mutation' ? 'mutation (it changes data)' : 'query';
  const base = `Runs the GraphQL ${kind} ${node.name!.value} against ${options.endpointName}.`;
  return said.length > 0 ? `${said.join(' ')} ${base}` : base;
}

function coerce(
  schema: GraphQLSchema,
  tool: OperationTool,
  args: Record<string, unknown>,
  scalars: Scalars,
): Record<string, unknown> {
  const definitions = tool.operation.variableDefinitions ?? [];
  const known = definitions.map((definition) => definition.variable.name.value);
  const unknown = Object.keys(args).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    const inputs = known.length > 0 ? `the inputs are ${known.join(', ')}` : 'it takes no inputs';
    throw new ToolError(
      'INVALID_INPUT',
      `unknown input ${unknown.map((key) => JSON.stringify(key.slice(0, 60))).join(', ')} (${inputs})`,
    );
  }
  // A null is sent as given where the variable takes one (it may mean something else than leaving it out);
  // where it cannot be null, it counts as left out, as for the built-in tools (models send null for "none").
  const nonNull = new Set(
    definitions
      .filter((definition) => definition.type.kind === Kind.NON_NULL_TYPE)
      .map((definition) => definition.variable.name.value),
  );
  const given = Object.fromEntries(
    Object.entries(args).filter(([name, value]) => value !== null || !nonNull.has(name)),
  );
  const result = getVariableValues(schema, definitions, given, { maxErrors: 10 });
  if (result.errors === undefined) {
    const problems = scalarProblems(schema, definitions, given, scalars);
    if (problems.length === 0) return given;
    throw new ToolError('INVALID_INPUT', problems.join(' '));
  }
  const messages = result.errors.map((error) => withType(error));
  const hints = hintsForMessages(
    schema,
    result.errors.map((error) => error.message),
  );
  throw new ToolError('INVALID_INPUT', [...messages, ...hints].join(' '));
}

/**
 * A coercion error in the tool's words, ending with the variable's GraphQL type where graphql-js does not
 * name it (`Int cannot represent …` says nothing of the list of lists it was expected in).
 */
function withType(error: GraphQLError): string {
  const message = error.message.replace(/^Variable "\$/, 'input "');
  const definition = error.nodes?.[0];
  if (definition?.kind !== Kind.VARIABLE_DEFINITION) return message;
  const type = print(definition.type);
  const name = definition.variable.name.value;
  return message.includes(`"${type}"`) ? message : `${message} (input "${name}" is of type ${type})`;
}
