import {
  astFromValue,
  DEFAULT_DEPRECATION_REASON,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  print,
  type GraphQLArgument,
  type GraphQLEnumValue,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
} from 'graphql';
import { thousands } from '../common/text.js';

// One-line SDL for the parts of a large schema that are shown in brief (overview, search results): the
// same syntax printSchema uses, without the multi-line descriptions that make up most of a big schema.

/** Longest first sentence kept; some descriptions run for a paragraph before their first full stop. */
const MAX_SENTENCE_CHARS = 160;

/**
 * The first sentence of a description, on one line. A sentence ends at `.`, `!` or `?` followed by a
 * capital letter or the end, or at a blank line, so that "e.g. this" or "(ie. that" do not end it.
 */
export function firstSentence(description: string | null | undefined): string {
  if (description == null) return '';
  const paragraph = description.trim().split(/\n\s*\n/, 1)[0] ?? '';
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s+[A-Z"'`([]|$)/.exec(flat);
  const sentence = end === null ? flat : flat.slice(0, end.index + 1);
  if (sentence.length <= MAX_SENTENCE_CHARS) return sentence;
  const cut = sentence.slice(0, MAX_SENTENCE_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_SENTENCE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** A string as a GraphQL string literal, escaped as graphql-js prints it. */
export function stringLiteral(value: string): string {
  return print({ kind: Kind.STRING, value });
}

/** `@deprecated` or `@deprecated(reason: "…")` as printSchema prints it; empty when not deprecated. */
function deprecatedSuffix(reason: string | null | undefined, brief = false): string {
  if (reason == null) return '';
  if (brief || reason === DEFAULT_DEPRECATION_REASON) return ' @deprecated';
  return ` @deprecated(reason: ${stringLiteral(firstSentence(reason) || reason)})`;
}

/** `name: Type = default` of an argument or input field. */
export function inputValueLine(value: GraphQLArgument | GraphQLInputField, brief = false): string {
  const defaultAst = astFromValue(value.defaultValue, value.type);
  const defaultValue = defaultAst ? ` = ${print(defaultAst)}` : '';
  return `${value.name}: ${String(value.type)}${defaultValue}${deprecatedSuffix(value.deprecationReason, brief)}`;
}

/** `name(arg: Type, …): Type`, the arguments inline; `name(…): Type` when `args` is false. */
export function fieldSignature(
  field: GraphQLField<unknown, unknown>,
  options: { args?: boolean; brief?: boolean } = {},
): string {
  const { args = true, brief = false } = options;
  let list = '';
  if (field.args.length > 0) {
    list = args ? `(${field.args.map((arg) => inputValueLine(arg, brief)).join(', ')})` : '(…)';
  }
  return `${field.name}${list}: ${String(field.type)}${deprecatedSuffix(field.deprecationReason, brief)}`;
}

/** An enum value as its line in SDL. */
export function enumValueLine(value: GraphQLEnumValue, brief = false): string {
  return `${value.name}${deprecatedSuffix(value.deprecationReason, brief)}`;
}

/** The kind of a type in words, for headings and lists. */
export function kindOf(type: GraphQLNamedType): TypeKind {
  if (isObjectType(type)) return 'object';
  if (isInterfaceType(type)) return 'interface';
  if (isUnionType(type)) return 'union';
  if (isEnumType(type)) return 'enum';
  if (isInputObjectType(type)) return 'input';
  return 'scalar';
}

export type TypeKind = 'object' | 'interface' | 'union' | 'enum' | 'input' | 'scalar';

/**
 * The first line of a type's SDL, with its size instead of its body: `type Issue implements Node { … 48
 * fields }`, `union SearchResultItem = App | Issue`, `enum IssueState { OPEN CLOSED }` when short.
 */
export function typeHeader(type: GraphQLNamedType): string {
  if (isObjectType(type) || isInterfaceType(type)) {
    const keyword = isObjectType(type) ? 'type' : 'interface';
    const interfaces = type.getInterfaces().map((i) => i.name);
    const implementsList = interfaces.length > 0 ? ` implements ${interfaces.join(' & ')}` : '';
    return `${keyword} ${type.name}${implementsList} { … ${count(Object.keys(type.getFields()).length, 'field')} }`;
  }
  if (isUnionType(type)) return `union ${type.name} = ${type.getTypes().join(' | ')}`;
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name);
    const inline = values.join(' ');
    return inline.length <= 120
      ? `enum ${type.name} { ${inline} }`
      : `enum ${type.name} { … ${count(values.length, 'value')} }`;
  }
  if (isInputObjectType(type)) {
    return `input ${type.name} { … ${count(Object.keys(type.getFields()).length, 'field')} }`;
  }
  return `scalar ${type.name}`;
}

/** "1 field", "48 fields", with thousands separated. */
export function count(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? '' : 's'}`;
}
