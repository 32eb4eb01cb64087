import {
  Kind,
  print,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { AnalysedDocument } from './operation.js';
import { thousands } from '../thousands.js';

// What a person is shown before a mutation runs, so that they can judge it in a few seconds: where it goes, which
// operation, each field it calls with its arguments (variables filled in), and the exact document that will be
// sent. Everything is bounded (a document of thousands of fields stays a screenful), and every character that
// could hide or reorder text (controls, bidirectional overrides, zero-width marks) is shown as its code point.

/** What the question is about. */
export interface MutationToConfirm {
  /** Where it is sent: origin and path, without query string. */
  readonly endpoint: string;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

/** Most root fields listed; the rest are counted. */
const MAX_FIELDS = 12;
/** Most characters of one argument's value. */
const MAX_VALUE_CHARS = 200;
/** Most characters of the document shown. */
const MAX_DOCUMENT_CHARS = 1_500;
/** Most characters of the variables shown as JSON. */
const MAX_VARIABLES_CHARS = 600;

/** The question's text: plain lines, bounded, with every invisible or reordering character made visible. */
export function mutationQuestion({ endpoint, document, operation, variables }: MutationToConfirm): string {
  const lines = [`Run this GraphQL mutation? It changes data at ${endpoint}.`];
  const name = operation.name?.value;
  if (operation.operation === 'mutation') {
    lines.push(`Operation: ${name ?? '(anonymous)'}`);
    const fields = rootFields(operation.selectionSet, document);
    lines.push('It calls:');
    for (const field of fields.slice(0, MAX_FIELDS))
      lines.push(`  ${describeField(field, variables, operation)}`);
    if (fields.length > MAX_FIELDS)
      lines.push(`  … and ${thousands(fields.length - MAX_FIELDS)} more fields`);
  } else {
    // The mutation guard covers the whole document, so a document that holds one is asked about even when the
    // operation to run is a query: the person sees which runs.
    const others = document.operations
      .filter((op) => op.operation === 'mutation')
      .map((op) => op.name?.value);
    lines.push(
      `Operation: ${name ?? '(anonymous)'}, a ${operation.operation}; the document also holds the mutation ${others.map((other) => other ?? '(anonymous)').join(', ')}, which is not the one to run.`,
    );
  }
  lines.push(`Document as sent: ${bounded(document.text, MAX_DOCUMENT_CHARS, 'characters')}`);
  if (variables !== undefined && Object.keys(variables).length > 0) {
    lines.push(`Variables: ${bounded(JSON.stringify(variables), MAX_VARIABLES_CHARS, 'characters')}`);
  }
  return lines.map(visible).join('\n');
}

/** The fields a selection set calls at its own level, through fragments and inline fragments. */
function rootFields(selectionSet: SelectionSetNode, document: AnalysedDocument): FieldNode[] {
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = document.fragments.get(selection.name.value);
        if (fragment !== undefined) visit(fragment.selectionSet);
      }
    }
  };
  visit(selectionSet);
  return fields;
}

/** `alias: name(arg: value, …)` with the variables' values in place. */
function describeField(
  field: FieldNode,
  variables: Readonly<Record<string, unknown>> | undefined,
  operation: OperationDefinitionNode,
): string {
  const alias = field.alias === undefined ? '' : `${field.alias.value}: `;
  const args = (field.arguments ?? []).map(
    (arg) =>
      `${arg.name.value}: ${bounded(valueText(arg.value, variables, operation), MAX_VALUE_CHARS, 'characters')}`,
  );
  return `${alias}${field.name.value}${args.length > 0 ? `(${args.join(', ')})` : ''}`;
}

function valueText(
  value: ValueNode,
  variables: Readonly<Record<string, unknown>> | undefined,
  operation: OperationDefinitionNode,
): string {
  switch (value.kind) {
    case Kind.VARIABLE: {
      const name = value.name.value;
      if (variables !== undefined && Object.hasOwn(variables, name)) return literal(variables[name]);
      const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
      return definition?.defaultValue !== undefined ? print(definition.defaultValue) : 'null';
    }
    case Kind.LIST:
      return `[${value.values.map((item) => valueText(item, variables, operation)).join(', ')}]`;
    case Kind.OBJECT:
      return `{${value.fields.map((f) => `${f.name.value}: ${valueText(f.value, variables, operation)}`).join(', ')}}`;
    default:
      return print(value);
  }
}

/** A JSON value as a GraphQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([key, item]) => `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `text`, or its start with the count of what was left out. */
function bounded(text: string, max: number, unit: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${thousands(text.length - max)} more ${unit} not shown)`;
}

/**
 * Characters that are invisible, or reorder or break the text around them: controls and line separators,
 * bidirectional marks and overrides, zero-width and filler characters, variation selectors, tags, lone
 * surrogates. A person must see what is there.
 */
const HIDDEN: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xd800, 0xdfff],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

/** `text` with every hidden or reordering character shown as `<U+XXXX>` (line breaks inside values too). */
export function visible(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const hidden = HIDDEN.some(([first, last]) => code >= first && code <= last);
    out += hidden ? `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>` : char;
  }
  return out;
}
