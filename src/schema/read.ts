import { ToolError } from '../common/errors.js';
import { thousands } from '../common/text.js';
import { denserBudget } from '../graphql/token-estimate.js';
import { redactionNote, type Redactor } from '../redaction/redactor.js';
import { answerSchemaQuestion, prepareSearchSoon } from './answers/answer.js';
import { clampText } from './answers/text-budget.js';
import { searchTerms } from './search.js';
import { loadSchema, sharedSchemaCache, type SchemaSettings, type SchemaTarget } from './source.js';

// Reading a schema for one call (graphql_introspect's, or a schema resource's): fetch it (or take it from the
// cache or the --schema file), and answer the question within --maxSchemaChars, notes included.

/** What to read of a schema. */
export interface SchemaQuestion {
  readonly includeDeprecated: boolean;
  readonly typeNames: readonly string[] | undefined;
  readonly search: string | undefined;
}

// What the schema text keeps at least when notes (withheld headers) share the budget with it.
const MIN_TEXT_CHARS = 500;

/** A search must hold a word to look for. */
export function checkSearch(search: string | undefined): void {
  if (search !== undefined && searchTerms(search).length === 0) {
    throw new ToolError('INVALID_INPUT', 'search must hold a word (letters or digits)');
  }
}

/** The reading call: the notes it carries (it gets the withheld headers' here), and what it hides. */
export interface Reading {
  notes: string[];
  readonly hide: Redactor;
}

/** The schema at the call's target, or the part of it asked for, within the budget: its texts, notes last. */
export async function readSchema(
  target: SchemaTarget,
  input: SchemaQuestion,
  call: Reading,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const { includeDeprecated } = input;
  const { config } = target.api;
  call.notes = fitNotes(target.withheldNotes(), config.maxSchemaChars);

  // One fetch per endpoint and credentials while it is fresh, shared by concurrent calls.
  const { schema, key } = await loadSchema(target, (text) => call.hide.text(text), signal);
  let view;
  try {
    view = await schema.view(includeDeprecated);
  } catch (error) {
    sharedSchemaCache(config).delete(key);
    throw error;
  }
  const question = { typeNames: input.typeNames, search: input.search };
  const budget = textBudget(config.maxSchemaChars, call.notes);
  let room = budget;
  let answer = await answerSchemaQuestion(schema, view, question, room);
  // Descriptions in CJK (or other dense text) hold more tokens per character: fewer characters for them.
  for (let round = 0; round < 3; round++) {
    const denser = denserBudget(answer, budget);
    if (denser === undefined || denser < MIN_TEXT_CHARS) break;
    room = denser;
    answer = await answerSchemaQuestion(schema, view, question, room);
  }
  if (config.schemaTtl > 0) prepareSearchSoon(view);
  // A schema's names and descriptions are the endpoint's text, and may quote the request's headers.
  const { value: text, hidden } = call.hide.json(answer);
  const texts = [text, ...call.notes];
  if (room < budget) texts.push(denseNote(config.maxSchemaChars));
  if (hidden > 0) {
    const note = redactionNote(hidden, 'schema');
    texts[0] = clampText(text, room - note.length - 2);
    texts.push(note);
  }
  return texts;
}

/** An error's message cut to what the budget leaves beside the call's notes. */
export function fitError(
  config: Pick<SchemaSettings, 'maxSchemaChars'>,
  call: Reading,
  message: string,
  code: string,
): string {
  return clampText(message, textBudget(config.maxSchemaChars, call.notes) - code.length - 2);
}

/** Why an answer holds fewer characters than --maxSchemaChars. */
function denseNote(maxChars: number): string {
  return `This schema's text is dense in tokens (CJK or the like): answers hold fewer characters than --maxSchemaChars (${thousands(maxChars)}), about half as many tokens.`;
}

// Every text of a result counts against --maxSchemaChars, with two characters between texts for the
// separator a client may put between them.
function textBudget(maxChars: number, notes: readonly string[]): number {
  return notes.reduce((room, note) => room - note.length - 2, maxChars);
}

/** Notes that leave the schema text at least MIN_TEXT_CHARS (they hold header names, which may be many). */
function fitNotes(notes: readonly string[], maxChars: number): string[] {
  if (textBudget(maxChars, notes) >= MIN_TEXT_CHARS) return [...notes];
  const room = Math.floor((maxChars - MIN_TEXT_CHARS) / Math.max(notes.length, 1)) - 2;
  return notes.map((note) => clampText(note, room));
}
