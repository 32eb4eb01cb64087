import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  GraphQLUnionType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  printType,
  type GraphQLFieldConfigMap,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { ToolError } from '../../common/errors.js';
import { suggestNames } from '../../graphql/name-suggestions.js';
import { formatPath, type PathStep } from '../paths.js';
import type { SchemaView } from '../view.js';
import { firstSentence } from '../sdl-lines.js';
import { thousands } from '../../common/text.js';
import { BLOCK_SEPARATOR, clampText, joinBlocks, listWithin } from './text-budget.js';
import { listSizeLines } from './list-sizes.js';

// `typeNames` asks for the full SDL of named types, as printSchema prints them. A name may also be a schema
// coordinate, `Type.member` (a field, an input field or an enum value), for one member in full: the way to
// read a member of a type too large to be shown whole. Each definition comes with one path from a root field.
//
// An answer holds the definitions in the order asked, as many as fit the budget; the others are named in a
// note to ask for again. A definition larger than the whole budget is shortened, in this order, until it
// fits: argument descriptions left out, then member descriptions cut to their first sentence, then all
// descriptions left out, then members cut ("… N more").

/** One entry of `typeNames`, found in the schema. */
export interface RequestedType {
  /** As asked, but for case: `Repository` or `Repository.issues`. */
  readonly label: string;
  readonly type: GraphQLNamedType;
  /** The member's name, for a coordinate. */
  readonly member?: string;
}

/**
 * The entries of `typeNames` found in the view, each once, in the order given; or INVALID_INPUT naming each
 * one not found with the closest names that exist. `isDeprecated(type, member)` tells apart a member left out
 * because it is deprecated.
 */
export function resolveTypeNames(
  view: SchemaView,
  names: readonly string[],
  isDeprecated: (type: string, member: string) => boolean = () => false,
): RequestedType[] {
  const found: RequestedType[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const typeNames = () => view.types.map((type) => type.name);
  for (const raw of names) {
    const name = raw.trim();
    const dot = name.indexOf('.');
    const typeName = dot === -1 ? name : name.slice(0, dot);
    const type = view.schema.getType(typeName);
    if (type === undefined) {
      problems.push(
        `no type ${JSON.stringify(typeName.slice(0, 100))}${didYouMean(suggestNames(typeName, typeNames()))}`,
      );
      continue;
    }
    if (dot === -1) {
      if (!seen.has(type.name)) found.push({ label: type.name, type });
      seen.add(type.name);
      continue;
    }
    const memberName = name.slice(dot + 1);
    const members = memberNames(type);
    if (members === undefined) {
      problems.push(
        `${type.name} is ${isUnionType(type) ? 'a union' : 'a scalar'}, which has no members: ask for "${type.name}"`,
      );
    } else if (!members.includes(memberName)) {
      problems.push(
        isDeprecated(type.name, memberName) && !view.includeDeprecated
          ? `${type.name}.${memberName} is deprecated: set includeDeprecated to true to read it`
          : `${type.name} has no member ${JSON.stringify(memberName.slice(0, 100))}${didYouMean(suggestNames(memberName, members))}`,
      );
    } else {
      const label = `${type.name}.${memberName}`;
      if (!seen.has(label)) found.push({ label, type, member: memberName });
      seen.add(label);
    }
  }
  if (problems.length > 0) throw new ToolError('INVALID_INPUT', `typeNames: ${problems.join('; ')}`);
  return found;
}

function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : ` (did you mean ${suggestions.join(', ')}?)`;
}

function memberNames(type: GraphQLNamedType): string[] | undefined {
  if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))
    return Object.keys(type.getFields());
  if (isEnumType(type)) return type.getValues().map((value) => value.name);
  return undefined;
}

/** The definitions asked for, at most `maxChars` long, with a note on top when any was cut or left for later. */
export function renderTypes(
  view: SchemaView,
  requested: readonly RequestedType[],
  maxChars: number,
  costs: GraphQLSchema = view.schema,
): string {
  // Each definition under its heading and what its lists count, made once: only the SDL is shortened.
  const blocks = requested.map((entry) => {
    const head = [heading(view, entry), ...listSizeLines(costs, entry.type, entry.member)].join('\n');
    const blockOf = (level: Level) => `${head}\n${sdlOf(view, entry, level)}`;
    return { entry, blockOf, full: blockOf(0) };
  });
  // The note goes on top and depends on what fits below it: guess its length, fit, and try again if short.
  let reserve = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const room = maxChars - reserve;
    const shown: string[] = [];
    const left: string[] = [];
    const shortened: Array<{ entry: RequestedType; step: string }> = [];
    let used = 0;
    for (const { entry, blockOf, full } of blocks) {
      const separator = shown.length === 0 ? 0 : BLOCK_SEPARATOR.length;
      if (used + separator + full.length <= room) {
        shown.push(full);
        used += separator + full.length;
      } else if (shown.length === 0 && left.length === 0) {
        // Too large for this answer even alone: shortened to fit, since asking again would not help.
        const { text, step } = shortenedBlock(blockOf, room);
        shown.push(text);
        used += text.length;
        shortened.push({ entry, step });
      } else {
        left.push(entry.label);
      }
    }
    const note = noteOf(shown.length, blocks.length, left, shortened, maxChars);
    const text = joinBlocks([note, ...shown]);
    if (text.length <= maxChars || attempt === 4) return clampText(text, maxChars);
    reserve = note.length + BLOCK_SEPARATOR.length;
  }
  throw new Error('unreachable');
}

function noteOf(
  shown: number,
  total: number,
  left: readonly string[],
  shortened: ReadonlyArray<{ entry: RequestedType; step: string }>,
  maxChars: number,
): string {
  const lines: string[] = [];
  const limit = `the ${thousands(maxChars)}-character limit (--maxSchemaChars)`;
  for (const { entry, step } of shortened) {
    const first = memberNames(entry.type)?.[0];
    const example =
      first === undefined
        ? ''
        : ` Ask for one member in full with typeNames: ["${entry.type.name}.${first}"].`;
    lines.push(`# ${entry.label} is shortened to fit ${limit}: ${step}.${example}`);
  }
  if (left.length > 0) {
    // Listed in full where possible: the next call can copy them.
    const { text } = listWithin(
      left.map((name) => JSON.stringify(name)),
      Math.max(200, Math.floor(maxChars / 4)),
    );
    lines.push(
      `# ${thousands(shown)} of ${thousands(total)} shown, to fit ${limit}. Ask for the others in another call: typeNames: [${text}]`,
    );
  }
  return lines.join('\n');
}

// `# Repository.issues — path: Query.repository → Repository.issues`: how to reach it in a query.
function heading(view: SchemaView, entry: RequestedType): string {
  const toType = view.paths.get(entry.type.name);
  let where: string;
  if (toType === undefined) where = 'no path from a root field';
  else if (entry.member !== undefined && !isEnumType(entry.type)) {
    const step: PathStep = isInputObjectType(entry.type)
      ? { kind: 'inputField', type: entry.type.name, field: entry.member }
      : { kind: 'field', type: entry.type.name, field: entry.member };
    where = `path: ${formatPath([...toType, step])}`;
  } else where = toType.length === 0 ? 'a root type' : `path: ${formatPath(toType)}`;
  return `# ${entry.label} — ${where}`;
}

/** How much of the descriptions a definition keeps: all, none of the arguments', first sentences, none. */
type Level = 0 | 1 | 2 | 3;
const LEVEL_STEPS = [
  '',
  'argument descriptions left out',
  'argument descriptions left out, the others cut to their first sentence',
  'descriptions left out',
];

function sdlOf(view: SchemaView, entry: RequestedType, level: Level): string {
  if (level === 0 && entry.member === undefined) return view.typeSdl(entry.type.name)!;
  return printType(variantOf(entry.type, level, entry.member));
}

// A definition (`blockOf` a level of detail) of the most detail that fits `room`, cut by member as a last resort.
function shortenedBlock(blockOf: (level: Level) => string, room: number): { text: string; step: string } {
  for (const level of [1, 2, 3] as const) {
    const text = blockOf(level);
    if (text.length <= room) return { text, step: LEVEL_STEPS[level]! };
  }
  // Without descriptions each member is one line between the first line and the closing brace.
  const lines = blockOf(3).split('\n');
  const open = lines.findIndex((line) => line.endsWith('{'));
  if (open === -1 || lines[lines.length - 1] !== '}') {
    return { text: clampText(lines.join('\n'), room), step: 'cut' };
  }
  const head = lines.slice(0, open + 1);
  const members = lines.slice(open + 1, -1);
  const names = members.map((line) => /^\s*(\w+)/.exec(line)?.[1] ?? line.trim());
  const moreLine = (left: number) => `  # … ${thousands(left)} more: `;
  // Room for the member lines, keeping some for the names of those left out.
  let used = head.join('\n').length + '\n}'.length;
  let kept = 0;
  for (const line of members) {
    if (used + line.length + 1 + moreLine(members.length - kept - 1).length + 1 + 60 > room) break;
    used += line.length + 1;
    kept++;
  }
  const rest = names.slice(kept);
  const { text: restList } = listWithin(rest, Math.max(room - used - moreLine(rest.length).length - 1, 0));
  const text = [...head, ...members.slice(0, kept), moreLine(rest.length) + restList, '}'].join('\n');
  const step = `descriptions left out, ${thousands(rest.length)} of ${thousands(members.length)} members not shown (named at the end)`;
  return { text: clampText(text, room), step };
}

function describe(description: string | null | undefined, level: Level): string | undefined {
  if (description == null || level >= 3) return undefined;
  return level === 2 ? firstSentence(description) || undefined : description;
}

/**
 * A copy of `type` with descriptions shortened to `level`, and with only `member` when one is given (the
 * type's own description and interfaces left out then, as they are not what was asked).
 */
function variantOf(type: GraphQLNamedType, level: Level, member?: string): GraphQLNamedType {
  const keep = (name: string) => member === undefined || name === member;
  const typeDescription = member === undefined ? describe(type.description, level) : undefined;
  if (isObjectType(type)) {
    const config = type.toConfig();
    const interfaces = member === undefined ? config.interfaces : [];
    const fields = shortenFields(config.fields, level, keep);
    return new GraphQLObjectType({ ...config, description: typeDescription, fields, interfaces });
  }
  if (isInterfaceType(type)) {
    const config = type.toConfig();
    const interfaces = member === undefined ? config.interfaces : [];
    const fields = shortenFields(config.fields, level, keep);
    return new GraphQLInterfaceType({ ...config, description: typeDescription, fields, interfaces });
  }
  if (isInputObjectType(type)) {
    const config = type.toConfig();
    const fields = Object.fromEntries(
      Object.entries(config.fields)
        .filter(([name]) => keep(name))
        .map(([name, field]) => [name, { ...field, description: describe(field.description, level) }]),
    );
    return new GraphQLInputObjectType({ ...config, description: typeDescription, fields });
  }
  if (isEnumType(type)) {
    const config = type.toConfig();
    const values = Object.fromEntries(
      Object.entries(config.values)
        .filter(([name]) => keep(name))
        .map(([name, value]) => [name, { ...value, description: describe(value.description, level) }]),
    );
    return new GraphQLEnumType({ ...config, description: typeDescription, values });
  }
  if (isUnionType(type)) return new GraphQLUnionType({ ...type.toConfig(), description: typeDescription });
  return type;
}

function shortenFields(
  fields: GraphQLFieldConfigMap<unknown, unknown>,
  level: Level,
  keep: (name: string) => boolean,
): GraphQLFieldConfigMap<unknown, unknown> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => keep(name))
      .map(([name, field]) => {
        const args = Object.entries(field.args ?? {}).map(([argName, arg]) => [
          argName,
          { ...arg, description: level >= 1 ? undefined : arg.description },
        ]);
        return [
          name,
          { ...field, description: describe(field.description, level), args: Object.fromEntries(args) },
        ];
      }),
  );
}
