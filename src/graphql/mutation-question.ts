import {
  Kind,
  print,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { CostContributor } from './cost.js';
import type { AnalysedDocument } from './operation.js';
import { REDACTED, thousands } from '../common/text.js';

// What a person is shown before a mutation runs, so that they can judge it in a few seconds: where it goes, which
// API and operation, every field it calls at its root with its arguments (variables filled in), the exact
// document that will be sent, and which headers the call adds. Nothing the model chose can hide any part of it:
// only the operator's own secrets are ever masked (by `hide`), and never in a name; every root field is listed
// whatever the bound, and a mutation whose root fields cannot all be shown is refused rather than half-shown.
// Every character that could hide or reorder text is shown as its code point.

/** What the question is about. */
export interface MutationToConfirm {
  /** Where it is sent: origin and path, without query string. */
  readonly endpoint: string;
  /** The API's name, where the server has several. */
  readonly api?: string;
  /**
   * Who the API sees run it, where its `auth` says (`alice@example.com at crm`): the person asked sees whose
   * name it runs in.
   */
  readonly actor?: string;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  /** The names of the headers the call itself adds (their values are not shown). */
  readonly callHeaders?: readonly string[];
  /** The fields of its cost estimate (cost.ts), largest first: the lists it may touch are named. */
  readonly lists?: readonly CostContributor[];
  /**
   * Masks the operator's secrets (configured headers, values from the environment) in a text; never what the
   * model chose for this call, which the person must see as it is.
   */
  readonly hide?: (text: string) => string;
}

/** A mutation that cannot be shown to a person whole: it is refused, never half-asked. */
export class UnconfirmableMutation extends Error {
  override readonly name = 'UnconfirmableMutation';
}

/** Most characters of one argument's value, at first; a question too long for that shows shorter values. */
const VALUE_CHARS = [200, 40] as const;
/** Most characters the list of root fields may take; beyond it the mutation is refused. */
const MAX_FIELDS_CHARS = 6_000;
/** Most characters of the document shown (at least; more when the fields take less). */
const SHOWN_DOCUMENT_CHARS = 1_500;
/** Most characters of the variables shown as JSON. */
const MAX_VARIABLES_CHARS = 600;
/** Most lists named, largest first, and most characters their line takes. */
const MAX_LISTS = 5;
const MAX_LISTS_CHARS = 600;

/**
 * The question's text: plain lines, bounded, with every invisible or reordering character made visible. Throws
 * UnconfirmableMutation when a person could not see every field it calls, or when an operator's secret would
 * mask a name.
 */
export function mutationQuestion(mutation: MutationToConfirm): string {
  const { endpoint, api, document, operation, variables } = mutation;
  const hide = mutation.hide ?? ((text: string) => text);
  const name = operation.name?.value;
  const lines = [`Run this GraphQL mutation? It changes data at ${hide(endpoint)}.`];
  if (api !== undefined) lines.push(`API: ${api}`);
  if (mutation.actor !== undefined) lines.push(`As: ${mutation.actor}`);
  const names = [name, ...document.operations.map((op) => op.name?.value)];
  if (names.some((text) => text !== undefined && hide(text) !== text)) {
    throw new UnconfirmableMutation("an operation's name matches one of the server's own credentials");
  }
  if (operation.operation === 'mutation') {
    lines.push(`Operation: ${name ?? '(anonymous)'}`);
    lines.push('It calls:', ...rootFieldLines(rootFields(operation.selectionSet, document), mutation, hide));
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
  const fieldsChars = lines.reduce((sum, line) => sum + line.length + 1, 0);
  const documentChars = Math.max(SHOWN_DOCUMENT_CHARS, MAX_FIELDS_CHARS - fieldsChars);
  const text = hide(document.text);
  const shown =
    text.length <= documentChars
      ? text
      : `${text.slice(0, documentChars)}… (${thousands(text.length - documentChars)} more characters not shown; every field it calls is listed above)`;
  lines.push(`Document as sent: ${shown}`);
  if (variables !== undefined && Object.keys(variables).length > 0) {
    lines.push(`Variables: ${bounded(hide(JSON.stringify(variables)), MAX_VARIABLES_CHARS, 'characters')}`);
  }
  const lists = listsLine(mutation.lists ?? []);
  if (lists !== undefined) lines.push(bounded(hide(lists), MAX_LISTS_CHARS, 'characters'));
  if (mutation.callHeaders !== undefined && mutation.callHeaders.length > 0) {
    lines.push(`Headers this call adds: ${mutation.callHeaders.join(', ')} (values not shown)`);
  }
  if (lines.some((line) => line.includes(REDACTED))) {
    lines.push(`${REDACTED} stands for a value of the server's own configured credentials.`);
  }
  return lines.map(visible).join('\n');
}

/**
 * One line per root field, every one of them: with values cut shorter when they would not fit, and refused when
 * even then they do not.
 */
function rootFieldLines(
  fields: readonly FieldNode[],
  mutation: MutationToConfirm,
  hide: (text: string) => string,
): string[] {
  for (const field of fields) {
    const names = [
      field.name.value,
      field.alias?.value,
      ...(field.arguments ?? []).map((arg) => arg.name.value),
    ];
    if (names.some((text) => text !== undefined && hide(text) !== text)) {
      throw new UnconfirmableMutation("a field's name matches one of the server's own credentials");
    }
  }
  for (const valueChars of VALUE_CHARS) {
    const lines = fields.map(
      (field) => `  ${describeField(field, mutation.variables, mutation.operation, hide, valueChars)}`,
    );
    if (lines.reduce((sum, line) => sum + line.length + 1, 0) <= MAX_FIELDS_CHARS) return lines;
  }
  throw new UnconfirmableMutation(
    `it calls ${thousands(fields.length)} fields, more than one question can show a person; split it into smaller mutations`,
  );
}

/** The names of the fields an operation calls at its root (aliases as `alias: name`), for an audit line. */
export function rootFieldNames(document: AnalysedDocument, operation: OperationDefinitionNode): string[] {
  return rootFields(operation.selectionSet, document).map((field) =>
    field.alias === undefined ? field.name.value : `${field.alias.value}: ${field.name.value}`,
  );
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

/** `alias: name(arg: value, …)` with the variables' values in place, each value at most `valueChars` long. */
function describeField(
  field: FieldNode,
  variables: Readonly<Record<string, unknown>> | undefined,
  operation: OperationDefinitionNode,
  hide: (text: string) => string,
  valueChars: number,
): string {
  const alias = field.alias === undefined ? '' : `${field.alias.value}: `;
  const args = (field.arguments ?? []).map(
    (arg) =>
      `${arg.name.value}: ${bounded(hide(valueText(arg.value, variables, operation)), valueChars, 'characters')}`,
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

/**
 * `Lists it may touch (estimated items): removeReviews up to 100 (first: 100); …`: how far a mutation may reach,
 * by the sizes its cost estimate counted; undefined when it reaches no list.
 */
function listsLine(contributors: readonly CostContributor[]): string | undefined {
  const lists = contributors.filter((c) => c.sizeFrom !== 'weight');
  if (lists.length === 0) return undefined;
  const sizeOf = (c: CostContributor) =>
    c.sizeFrom === 'argument' && c.slicedBy !== undefined
      ? `${c.slicedBy}: ${thousands(c.size)}`
      : c.sizeFrom === 'default'
        ? `the API's default of ${thousands(c.size)}`
        : c.sizeFrom === 'listSize'
          ? `@listSize ${thousands(c.size)}`
          : `no size given, counted as ${thousands(c.size)}`;
  const named = lists.slice(0, MAX_LISTS).map((c) => `${c.path} up to ${thousands(c.items)} (${sizeOf(c)})`);
  const more = lists.length > MAX_LISTS ? `; and ${thousands(lists.length - MAX_LISTS)} more` : '';
  return `Lists it may touch (estimated items): ${named.join('; ')}${more}`;
}

/** `text`, or its start with the count of what was left out. */
function bounded(text: string, max: number, unit: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${thousands(text.length - max)} more ${unit} not shown)`;
}

/**
 * Characters that do not show as a glyph of their own, or reorder or break the text around them: controls, format
 * characters (bidirectional marks and overrides, zero-width ones, Egyptian and shorthand format controls,
 * Arabic number signs, musical beams…), private-use and unassigned code points, lone surrogates, line and
 * paragraph separators, every default-ignorable character (variation selectors, tags, fillers), spaces other
 * than the plain space, and the blank-looking letters and symbols (Hangul fillers, the Braille blank). Matched
 * by Unicode property, so that new characters of a kind are covered too.
 */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u115F\u1160\u2800\u3164\uFFA0]|(?!\x20)\p{Zs}/u;

/** `text` with every such character shown as `<U+XXXX>` (line breaks inside values too). */
export function visible(text: string): string {
  let out = '';
  for (const char of text) {
    out += HIDDEN.test(char)
      ? `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`
      : char;
  }
  return out;
}
