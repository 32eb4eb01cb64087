import type { GraphQLSchema } from 'graphql';
import { renderOverview } from './overview.js';
import { searchIndexOf, searchSchema, searchTerms } from '../search.js';
import { renderSearch } from './search.js';
import { renderTypes, resolveTypeNames } from './types.js';
import type { IntrospectedSchema, SchemaView } from '../view.js';
import { stringLiteral } from '../sdl-lines.js';
import { BLOCK_SEPARATOR, clampText } from './text-budget.js';
import { thousands } from '../../common/text.js';

// What graphql_introspect answers, within a character budget:
//   - no typeNames and no search: the whole SDL if it fits, else the overview;
//   - typeNames: those definitions; search: the best matches;
//   - both: the definitions first, then the search in the room they leave.
// Answers are kept per view and budget, so that a repeated call only looks one up.

/** What a call asks of a schema. */
export interface SchemaQuestion {
  readonly typeNames?: readonly string[];
  readonly search?: string;
}

/** Room below which a search after definitions is not worth showing: it says to ask again instead. */
const MIN_SEARCH_ROOM = 400;
/** Answers kept per view. */
const MAX_ANSWERS = 64;

const answers = new WeakMap<SchemaView, Map<string, string>>();

/**
 * The answer to `question` from one view of `schema`, at most `maxChars` long. Unknown typeNames throw
 * INVALID_INPUT with suggestions.
 */
export async function answerSchemaQuestion(
  schema: IntrospectedSchema,
  view: SchemaView,
  question: SchemaQuestion,
  maxChars: number,
): Promise<string> {
  let kept = answers.get(view);
  if (kept === undefined) {
    kept = new Map();
    answers.set(view, kept);
  }
  const key = JSON.stringify([maxChars, question.typeNames ?? null, question.search ?? null]);
  let answer = kept.get(key);
  if (answer === undefined) {
    answer = clampText(await answer_(schema, view, question, maxChars), maxChars);
    if (kept.size >= MAX_ANSWERS) kept.delete(kept.keys().next().value as string);
  } else kept.delete(key);
  // Most recently used last: the first is dropped when full.
  kept.set(key, answer);
  return answer;
}

async function answer_(
  schema: IntrospectedSchema,
  view: SchemaView,
  { typeNames, search }: SchemaQuestion,
  maxChars: number,
): Promise<string> {
  if (typeNames === undefined && search === undefined) {
    // Nothing is left out silently: a model that meets a deprecated enum value in data must learn why.
    const left = view.includeDeprecated ? 0 : schema.deprecatedCount;
    const notes =
      left === 0
        ? []
        : [
            `# Deprecated members left out: ${thousands(left)} (fields, arguments, input fields, ` +
              'enum values); includeDeprecated: true shows them.',
          ];
    const whole = view.wholeSdl(maxChars - notes.reduce((sum, note) => sum + note.length + 1, 0));
    if (whole !== undefined) return [...notes, whole].join('\n');
    return renderOverview(view, maxChars, notes);
  }
  // Where the answer names lists, what they count toward a query's cost: @listSize and @cost from an SDL file.
  const costs = schema.annotated ?? view.schema;
  if (typeNames === undefined) return searchOf(view, costs, search!, maxChars);
  const requested = resolveTypeNames(view, typeNames, (type, member) => schema.isDeprecated(type, member));
  if (search === undefined) return renderTypes(view, requested, maxChars, costs);
  // The definitions leave room for at least the line that says the search was not shown.
  const notShown =
    `# search ${stringLiteral(search.trim())}: not shown, the definitions above used the character limit ` +
    '(--maxSchemaChars). Ask again with search alone.';
  const definitions = renderTypes(
    view,
    requested,
    maxChars - notShown.length - BLOCK_SEPARATOR.length,
    costs,
  );
  const room = maxChars - definitions.length - BLOCK_SEPARATOR.length;
  const results = room >= MIN_SEARCH_ROOM ? await searchOf(view, costs, search, room) : notShown;
  return `${definitions}${BLOCK_SEPARATOR}${results}`;
}

/**
 * Builds the search index of a view once the current call has answered: a model that has read an overview
 * usually searches next, and then finds it ready. Built in slices, it does not hold up other calls.
 */
export function prepareSearchSoon(view: SchemaView): void {
  setImmediate(() => {
    searchIndexOf(view).catch(() => undefined);
  });
}

async function searchOf(
  view: SchemaView,
  costs: GraphQLSchema,
  search: string,
  maxChars: number,
): Promise<string> {
  const index = await searchIndexOf(view);
  const terms = searchTerms(search);
  return renderSearch(search, terms, searchSchema(index, search), maxChars, costs);
}
