import {
  getLocation,
  GraphQLError,
  Kind,
  Lexer,
  parse,
  print,
  Source,
  TokenKind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ToolError } from '../common/errors.js';

/** Most tokens a document may hold: enough for any real query, little enough to parse in milliseconds. */
export const MAX_TOKENS = 15_000;
/** Most characters a document may hold: the token limit does not bound one huge string or comment. */
const MAX_DOCUMENT_CHARS = 1_000_000;
/**
 * Most levels of nesting ({ ( [) in a document. graphql-js parses recursively, and how deep it gets before
 * the stack runs out depends on whether its code is optimised yet: about 2,000 levels when it is not. A
 * fixed limit at half that gives the same answer in a fresh process, a warm one, and after a collection.
 */
export const MAX_DEPTH = 1_000;

/** A parsed document whose fragments are known to resolve and to be acyclic. */
export interface AnalysedDocument {
  readonly document: DocumentNode;
  readonly operations: readonly OperationDefinitionNode[];
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /**
   * The document to send: printed from the tree on one line, without comments or ignored characters, so
   * that no other parser can read it otherwise than graphql-js read it here. Printed on first use and kept.
   */
  readonly text: string;
}

/**
 * Parses and checks a document: SYNTAX_ERROR, or INVALID_DOCUMENT when its fragments cannot be resolved.
 * A model runs the same document again and again (with other variables, or paging): each is parsed once,
 * and the analysis of the most recent ones is kept (see RECENT). Nothing downstream changes the tree.
 */
export function analyseDocument(query: string): AnalysedDocument {
  const known = recent.get(query);
  if (known !== undefined) {
    recent.delete(query); // most recently used last
    recent.set(query, known);
    return known;
  }
  const analysed = analyse(query);
  if (query.length <= RECENT.chars) {
    recent.set(query, analysed);
    recentChars += query.length;
    for (const [oldest] of recent) {
      if (recent.size <= RECENT.documents && recentChars <= RECENT.chars) break;
      recent.delete(oldest);
      recentChars -= oldest.length;
    }
  }
  return analysed;
}

/**
 * How many analysed documents are kept, and how many characters they may hold in all: a tree takes some
 * tens of bytes per character, so about 2 MB of heap at most.
 */
const RECENT = { documents: 64, chars: 64 * 1024 } as const;
const recent = new Map<string, AnalysedDocument>();
let recentChars = 0;

function analyse(query: string): AnalysedDocument {
  const document = parseQuery(query);
  const operations: OperationDefinitionNode[] = [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      const name = definition.name?.value;
      if (name !== undefined && operations.some((op) => op.name?.value === name)) {
        throw new ToolError('INVALID_DOCUMENT', `two operations are named "${name}"`);
      }
      operations.push(definition);
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      const name = definition.name.value;
      if (fragments.has(name)) {
        throw new ToolError('INVALID_DOCUMENT', `two fragments are named "${name}"`);
      }
      fragments.set(name, definition);
    } else {
      const kind = definition.kind
        .replace(/([A-Z])/g, ' $1')
        .trim()
        .toLowerCase();
      throw new ToolError(
        'INVALID_DOCUMENT',
        `the document holds ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} at line ${lineOf(definition.loc?.startToken.line)}; only operations and fragments can be executed`,
      );
    }
  }
  checkFragments(operations, fragments);
  let text: string | undefined;
  return {
    document,
    operations,
    fragments,
    get text() {
      return (text ??= printOnOneLine(document));
    },
  };
}

/**
 * graphql-js's print without indentation: its indented form grows with the square of the nesting (two
 * megabytes for a document nested MAX_DEPTH deep). Definitions one space apart rather than print's two.
 * Block strings keep their line breaks, which are part of their value.
 */
function printOnOneLine(document: DocumentNode): string {
  return document.definitions.map((definition) => print(definition, { maxIndentDepth: 0 })).join(' ');
}

function parseQuery(query: string): DocumentNode {
  if (query.length > MAX_DOCUMENT_CHARS) {
    throw new ToolError(
      'SYNTAX_ERROR',
      `the document has ${query.length} characters, more than the ${MAX_DOCUMENT_CHARS} this server parses; pass large values as variables`,
    );
  }
  if (nestsTooDeeply(query)) {
    throw new ToolError(
      'SYNTAX_ERROR',
      `the document is nested more than ${MAX_DEPTH} levels deep (braces, parentheses, brackets), the most this server parses`,
    );
  }
  let document: DocumentNode;
  try {
    document = parse(query, { noLocation: false, maxTokens: MAX_TOKENS });
  } catch (error) {
    if (error instanceof GraphQLError) {
      const message = error.message.replace(/^Syntax Error: /, '');
      if (/more th\w+ \d+ tokens/.test(message)) {
        throw new ToolError(
          'SYNTAX_ERROR',
          `the document has more than ${MAX_TOKENS} tokens, the most this server parses; send a smaller query`,
        );
      }
      const location = error.locations?.[0];
      const where = location ? ` (line ${location.line}, column ${location.column})` : '';
      throw new ToolError('SYNTAX_ERROR', `${message}${where}`);
    }
    // Below MAX_DEPTH this is not expected; kept so that a stack overflow still gets a clear answer.
    if (error instanceof RangeError) {
      throw new ToolError('SYNTAX_ERROR', 'the document is nested too deeply to parse');
    }
    throw error;
  }
  checkLineBreaks(query, document);
  return document;
}

/**
 * Characters that graphql-js reads as ordinary characters but other parsers as line breaks: graphql-java's
 * lexer ends a comment at U+2028 and U+2029, so that "#\u2028mutation\n{ a }" is a query here and a mutation
 * there. Outside strings they can only stand in comments (graphql-js refuses them anywhere else).
 */
const FOREIGN_LINE_BREAKS: ReadonlyMap<number, string> = new Map([
  [0x2028, 'U+2028 (LINE SEPARATOR)'],
  [0x2029, 'U+2029 (PARAGRAPH SEPARATOR)'],
  [0x0085, 'U+0085 (NEXT LINE)'],
]);

/**
 * SYNTAX_ERROR when one of FOREIGN_LINE_BREAKS stands outside a string or block string. Where strings are
 * is read from the tokens graphql-js's lexer made of the document; inside them the characters are data.
 */
function checkLineBreaks(query: string, document: DocumentNode): void {
  if (!query.includes('\u2028') && !query.includes('\u2029') && !query.includes('\u0085')) return;
  let from = 0;
  for (let token = document.loc?.startToken; token; token = token.next ?? undefined) {
    if (token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) {
      refuseLineBreakIn(query, from, token.start);
      from = token.end;
    }
  }
  refuseLineBreakIn(query, from, query.length);
}

function refuseLineBreakIn(query: string, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const c = query.charCodeAt(i);
    if (c !== 0x2028 && c !== 0x2029 && c !== 0x0085) continue;
    const name = FOREIGN_LINE_BREAKS.get(c)!;
    const { line, column } = getLocation(new Source(query), i);
    throw new ToolError(
      'SYNTAX_ERROR',
      `the document holds ${name} at line ${line}, column ${column} outside a string; other GraphQL servers read it as a line break, so it is refused: remove it`,
    );
  }
}

/**
 * Whether braces, parentheses and brackets nest past MAX_DEPTH, as graphql-js's lexer reads the document
 * (strings and comments do not count). Lexed only when the document has enough of them to get there. A
 * document the lexer refuses, or with too many tokens, is left to parse(), which says what is wrong.
 */
function nestsTooDeeply(query: string): boolean {
  let opening = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === 123 || c === 40 || c === 91) opening++;
  }
  if (opening <= MAX_DEPTH) return false;
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let count = 0, token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++count > MAX_TOKENS) return false;
      const kind = token.kind;
      if (kind === TokenKind.BRACE_L || kind === TokenKind.PAREN_L || kind === TokenKind.BRACKET_L) {
        if (++depth > MAX_DEPTH) return true;
      } else if (kind === TokenKind.BRACE_R || kind === TokenKind.PAREN_R || kind === TokenKind.BRACKET_R) {
        depth--;
      }
    }
  } catch {
    return false;
  }
  return false;
}

function lineOf(line: number | undefined): string {
  return line === undefined ? '?' : String(line);
}

// Every spread, in operations and fragments alike, must name a fragment, and fragments must not form a cycle:
// both would make the complexity and the mutation analysis meaningless.
function checkFragments(
  operations: readonly OperationDefinitionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): void {
  const spreadsOf = new Map<string, string[]>();
  const checkSpreads = (where: string, selectionSet: SelectionSetNode): string[] => {
    const names = spreadNames(selectionSet);
    const missing = names.find((name) => !fragments.has(name));
    if (missing !== undefined) {
      throw new ToolError(
        'INVALID_DOCUMENT',
        `${where} spreads ...${missing}, but no fragment "${missing}" is defined`,
      );
    }
    return names;
  };
  for (const operation of operations) {
    const label = operation.name ? `operation "${operation.name.value}"` : 'the anonymous operation';
    checkSpreads(label, operation.selectionSet);
  }
  for (const [name, fragment] of fragments) {
    spreadsOf.set(name, checkSpreads(`fragment "${name}"`, fragment.selectionSet));
  }

  // Depth-first search with an explicit stack: a chain of thousands of fragments must not exhaust ours.
  const state = new Map<string, 'visiting' | 'done'>();
  for (const root of fragments.keys()) {
    if (state.has(root)) continue;
    const path: string[] = [root];
    const pending: string[][] = [[...spreadsOf.get(root)!]];
    state.set(root, 'visiting');
    while (path.length > 0) {
      const next = pending[pending.length - 1]!.pop();
      if (next === undefined) {
        state.set(path.pop()!, 'done');
        pending.pop();
        continue;
      }
      const seen = state.get(next);
      if (seen === 'visiting') {
        const cycle = [...path.slice(path.indexOf(next)), next].join(' → ');
        throw new ToolError('INVALID_DOCUMENT', `fragments spread each other in a cycle: ${cycle}`);
      }
      if (seen === undefined) {
        state.set(next, 'visiting');
        path.push(next);
        pending.push([...spreadsOf.get(next)!]);
      }
    }
  }
}

/** Names of the fragments spread anywhere in a selection set, in order, with repeats. */
function spreadNames(selectionSet: SelectionSetNode, into: string[] = []): string[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) into.push(selection.name.value);
    else if (selection.selectionSet) spreadNames(selection.selectionSet, into);
  }
  return into;
}

/** The operation to run: the one named, or the only one; else OPERATION_NOT_FOUND naming those present. */
export function selectOperation(
  analysed: AnalysedDocument,
  operationName: string | undefined,
): OperationDefinitionNode {
  const { operations } = analysed;
  // Names are quoted back to the model: keep a hostile document's from flooding its context.
  const present = () => {
    const names = operations
      .slice(0, 20)
      .map((op) => (op.name ? JSON.stringify(op.name.value.slice(0, 100)) : '(anonymous)'));
    return names.join(', ') + (operations.length > 20 ? ` and ${operations.length - 20} more` : '');
  };
  if (operations.length === 0) {
    throw new ToolError('OPERATION_NOT_FOUND', 'the document holds no operation, only fragments');
  }
  if (operationName === undefined) {
    if (operations.length === 1) return operations[0]!;
    throw new ToolError(
      'OPERATION_NOT_FOUND',
      `the document holds ${operations.length} operations (${present()}); set operationName to the one to run`,
    );
  }
  const found = operations.find((op) => op.name?.value === operationName);
  if (found === undefined) {
    throw new ToolError(
      'OPERATION_NOT_FOUND',
      `no operation is named ${JSON.stringify(operationName.slice(0, 100))}${operationName.length > 100 ? '…' : ''}; the document holds ${present()}`,
    );
  }
  return found;
}

/** Whether any operation of the document, run or not, is a mutation. */
export function containsMutation(analysed: AnalysedDocument): boolean {
  return analysed.operations.some((op) => op.operation === 'mutation');
}
