import { getNamedType, isObjectType, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { count, fieldSignature, firstSentence, kindOf, stringLiteral, type TypeKind } from '../sdl-lines.js';
import { thousands } from '../../common/text.js';
import type { SchemaView } from '../view.js';
import { clampText, joinBlocks, listWithin } from './text-budget.js';
import { createYielder } from '../../common/time-slice.js';

// A schema too large to return whole is first shown as an overview: what a model needs to start writing
// queries (the root fields with their arguments and return types) and a map of the rest (the other type
// names by kind), with how to read more. When even that is over the budget it is shortened step by step,
// each step giving up what is easiest to get back with search or typeNames:
//
//   1. the other types reachable from the root fields are no longer listed (search finds them);
//   2. the descriptions of mutation and subscription fields are left out (their names say what they do);
//   3. the descriptions of query fields too;
//   4. argument lists are left out (`field(…): Type` marks a field that takes arguments);
//   5. root fields are listed by name only;
//   6. the lists are cut, each ending with "… N more".

interface Shape {
  readonly otherTypes: 'all' | 'unreachable';
  /** Which root types keep the first sentence of their fields' descriptions. */
  readonly descriptions: 'all' | 'query' | 'none';
  readonly args: boolean;
  readonly fieldNamesOnly: boolean;
}

const STAGES: ReadonlyArray<{ readonly shape: Shape; readonly step?: string }> = [
  { shape: { otherTypes: 'all', descriptions: 'all', args: true, fieldNamesOnly: false } },
  {
    shape: { otherTypes: 'unreachable', descriptions: 'all', args: true, fieldNamesOnly: false },
    step: 'types reachable from the root fields not listed',
  },
  {
    shape: { otherTypes: 'unreachable', descriptions: 'query', args: true, fieldNamesOnly: false },
    step: 'mutation and subscription field descriptions left out',
  },
  {
    shape: { otherTypes: 'unreachable', descriptions: 'none', args: true, fieldNamesOnly: false },
    step: 'query field descriptions left out',
  },
  {
    shape: { otherTypes: 'unreachable', descriptions: 'none', args: false, fieldNamesOnly: false },
    step: 'arguments left out, (…) marks fields that take some',
  },
  {
    shape: { otherTypes: 'unreachable', descriptions: 'none', args: false, fieldNamesOnly: true },
    step: 'root fields by name only',
  },
];
const CUT_STEP = 'lists cut (… N more)';

const KIND_LABELS: Record<TypeKind, string> = {
  object: 'objects',
  interface: 'interfaces',
  union: 'unions',
  enum: 'enums',
  input: 'input objects',
  scalar: 'scalars',
};
const KIND_ORDER: readonly TypeKind[] = ['object', 'interface', 'union', 'enum', 'input', 'scalar'];

/**
 * The overview of a schema too large to return whole, at most `maxChars` long; `notes` (`#` lines) go into
 * its header.
 */
export async function renderOverview(
  view: SchemaView,
  maxChars: number,
  notes: readonly string[] = [],
): Promise<string> {
  const parts = overviewParts(view);
  const steps: string[] = [];
  const yieldNow = createYielder();
  for (const { shape, step } of STAGES) {
    if (step !== undefined) steps.push(step);
    const text = joinBlocks([header(view, parts, steps, maxChars, notes), ...body(parts, shape)]);
    if (text.length <= maxChars) return text;
    // Each try prints the root types again: let other calls in between.
    await yieldNow();
  }
  return clampText(cutOverview(view, parts, [...steps, CUT_STEP], maxChars, notes), maxChars);
}

interface Parts {
  readonly roots: ReadonlyArray<{ readonly operation: string; readonly type: GraphQLObjectType }>;
  /** The non-root types, sorted by name. */
  readonly others: readonly GraphQLNamedType[];
  readonly unreachable: readonly GraphQLNamedType[];
  /** A type worth naming in the example of how to read more. */
  readonly exampleType: string | undefined;
}

function overviewParts(view: SchemaView): Parts {
  const { schema } = view;
  const roots = (
    [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
      ['subscription', schema.getSubscriptionType()],
    ] as const
  ).flatMap(([operation, type]) => (type ? [{ operation, type }] : []));
  const rootNames = new Set(roots.map((root) => root.type.name));
  const others = view.types
    .filter((type) => !rootNames.has(type.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const paths = view.paths;
  const unreachable = others.filter((type) => !paths.has(type.name));
  return { roots, others, unreachable, exampleType: exampleTypeOf(view) };
}

// The object type with the most fields among those the query root returns: on GitHub, Repository.
function exampleTypeOf(view: SchemaView): string | undefined {
  const query = view.schema.getQueryType();
  let best: { name: string; fields: number } | undefined;
  for (const field of Object.values(query?.getFields() ?? {})) {
    const type = getNamedType(field.type);
    if (!isObjectType(type) || type === query) continue;
    const fields = Object.keys(type.getFields()).length;
    if (best === undefined || fields > best.fields) best = { name: type.name, fields };
  }
  return best?.name ?? view.types.find((type) => kindOf(type) === 'object')?.name;
}

function header(
  view: SchemaView,
  parts: Parts,
  steps: readonly string[],
  maxChars: number,
  notes: readonly string[],
): string {
  const size = view.printedLength;
  const about = size >= 100_000 ? `about ${thousands(Math.round(size / 1000) * 1000)}` : thousands(size);
  const example = parts.exampleType ?? 'TypeName';
  const lines = [
    `# Overview: the whole schema (${count(view.types.length, 'type')}, ${about} characters of SDL) is over the ` +
      `${thousands(maxChars)}-character limit (--maxSchemaChars).`,
    `# Read more with graphql_introspect: typeNames: ["${example}"] gives full definitions ("Type.field" one ` +
      'field); search: "some words" finds types and fields, each with a path from a root field.',
  ];
  if (steps.length > 0) lines.push(`# Shortened to fit: ${steps.join('; ')}.`);
  return [...lines, ...notes].join('\n');
}

function body(parts: Parts, shape: Shape): string[] {
  return [
    schemaDefinition(parts),
    ...parts.roots.map(({ operation, type }) => {
      const { descriptions } = shape;
      return rootType(
        type,
        shape,
        descriptions === 'all' || (descriptions === 'query' && operation === 'query'),
      );
    }),
    otherTypes(parts, shape),
  ];
}

// Only when the roots are not named Query, Mutation and Subscription, as printSchema does.
function schemaDefinition(parts: Parts): string {
  const conventional = parts.roots.every(
    ({ operation, type }) => type.name === operation[0]!.toUpperCase() + operation.slice(1),
  );
  if (conventional) return '';
  return `schema { ${parts.roots.map(({ operation, type }) => `${operation}: ${type.name}`).join(' ')} }`;
}

function rootType(type: GraphQLObjectType, shape: Shape, descriptions: boolean): string {
  const fields = Object.values(type.getFields());
  if (shape.fieldNamesOnly) {
    return `# ${type.name} (${count(fields.length, 'field')}): ${fields.map((field) => field.name).join(', ')}`;
  }
  const lines: string[] = [];
  const typeDescription = descriptions ? firstSentence(type.description) : '';
  if (typeDescription !== '') lines.push(stringLiteral(typeDescription));
  lines.push(`type ${type.name} {`);
  for (const field of fields) {
    const signature = fieldSignature(field, { args: shape.args, brief: !descriptions });
    const description = descriptions ? firstSentence(field.description) : '';
    lines.push(`  ${signature}${description === '' ? '' : `  # ${description}`}`);
  }
  lines.push('}');
  return lines.join('\n');
}

function otherTypes(parts: Parts, shape: Shape): string {
  if (parts.others.length === 0) return '';
  if (shape.otherTypes === 'all') return ['# Other types, by kind:', ...kindLines(parts.others)].join('\n');
  const reachable = parts.others.length - parts.unreachable.length;
  const lead =
    `# Other types: ${reachable === parts.others.length ? 'all ' : ''}${thousands(reachable)} reachable ` +
    'from the root fields, not listed here: find them with search, read them with typeNames.';
  if (parts.unreachable.length === 0) return lead;
  return [lead, '# Not reachable from the root fields, by kind:', ...kindLines(parts.unreachable)].join('\n');
}

function kindLines(types: readonly GraphQLNamedType[]): string[] {
  return groupByKind(types).map(
    ({ kind, names }) => `# ${KIND_LABELS[kind]} (${thousands(names.length)}): ${names.join(', ')}`,
  );
}

function groupByKind(types: readonly GraphQLNamedType[]): Array<{ kind: TypeKind; names: string[] }> {
  const groups = new Map<TypeKind, string[]>();
  for (const type of types) {
    const kind = kindOf(type);
    const names = groups.get(kind);
    if (names === undefined) groups.set(kind, [type.name]);
    else names.push(type.name);
  }
  return KIND_ORDER.flatMap((kind) => {
    const names = groups.get(kind);
    return names ? [{ kind, names }] : [];
  });
}

// The last step: the shape of the previous one, each list given the room left, in order, and cut there.
function cutOverview(
  view: SchemaView,
  parts: Parts,
  steps: readonly string[],
  maxChars: number,
  notes: readonly string[],
): string {
  type Line = string | { readonly prefix: string; readonly items: readonly string[] };
  const lines: Line[] = parts.roots.map(({ type }) => {
    const fields = Object.keys(type.getFields());
    return { prefix: `# ${type.name} (${count(fields.length, 'field')}): `, items: fields };
  });
  if (parts.others.length > 0) {
    const reachable = parts.others.length - parts.unreachable.length;
    lines.push(`# Other types: ${thousands(reachable)} reachable from the root fields, not listed here.`);
    for (const { kind, names } of groupByKind(parts.unreachable)) {
      lines.push({ prefix: `# ${KIND_LABELS[kind]} (${thousands(names.length)}): `, items: names });
    }
  }
  const head = joinBlocks([header(view, parts, steps, maxChars, notes), schemaDefinition(parts)]);
  const more = (line: Line) =>
    typeof line === 'string' ? 0 : `… ${thousands(line.items.length)} more`.length;
  const bare = (line: Line) => (typeof line === 'string' ? line : line.prefix);
  // What the text takes with every list empty but for its "… N more": the names get the rest.
  let used = head.length + 2 + lines.reduce((sum, line) => sum + bare(line).length + more(line) + 1, -1);
  const printed = lines.map((line) => {
    if (typeof line === 'string') return line;
    used -= more(line);
    const { text } = listWithin(line.items, maxChars - used);
    used += text.length;
    return line.prefix + text;
  });
  return `${head}\n\n${printed.join('\n')}`;
}
