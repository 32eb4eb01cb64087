import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ApiConfig } from '../config/types.js';
import * as diagnostics from '../common/diagnostics.js';
import { fitResponse } from '../graphql/result-shape.js';
import { shapeNote } from '../graphql/result-shape-note.js';
import { redactionNote, type Redactor } from '../redaction/redactor.js';
import { boundedNote, notesRoom, withNotes } from './notes.js';

/**
 * The endpoint's GraphQL response, with any credential sent on this call that it echoes hidden (it may
 * quote the request's headers in an error message or in data), shortened to --maxResultChars (and about half
 * as many tokens); an error only when it has errors and no data. Every note (headers withheld, shortened,
 * hints, values redacted) is a text of its own and sits in the response's extensions too (see notes.ts).
 */
export async function graphqlResult(
  tool: string,
  config: ApiConfig,
  response: Record<string, unknown>,
  withheld: readonly string[],
  redactor: Redactor,
  hintsOnFailure: () => string[],
): Promise<CallToolResult> {
  const redacted = redactor.json(response);
  let result = redacted.value;
  const failed = Array.isArray(result.errors) && result.errors.length > 0 && (result.data ?? null) === null;
  // The names come from the endpoint's schema: its text, like the response's, may echo a credential.
  const hints = failed ? hintsOnFailure().map((hint) => boundedNote(redactor.text(hint))) : [];
  const redaction = redacted.hidden > 0 ? [redactionNote(redacted.hidden)] : [];
  const before = withheld.map((note) => boundedNote(note));
  let notes = [...before, ...hints, ...redaction];
  const text = JSON.stringify(result);
  let shaped;
  if (config.maxResultChars > 0) {
    // The notes take their room in the budget; so does the note on shortening, when there is one to write.
    const budget = config.maxResultChars - notesRoom(notes);
    const reserve = text.length > budget ? notesRoom([...notes, LONGEST_NOTE]) - notesRoom(notes) : 0;
    const chars = Math.max(budget - reserve, MIN_RESULT_CHARS);
    shaped = await fitResponse(result, chars, text);
    // The note names the option's budget, which the whole result (notes included) fits.
    if (shaped !== undefined && shaped.maxChars === chars)
      shaped = { ...shaped, maxChars: config.maxResultChars };
  }
  if (shaped !== undefined) {
    diagnostics.resultShortened.publish(tool);
    result = shaped.value;
    const note = boundedNote(
      shapeNote(shaped, config.maxResultChars, '--maxResultChars', SHAPE_NOTE_CHARS),
      SHAPE_NOTE_CHARS,
    );
    notes = [...before, note, ...hints, ...redaction];
  }
  const structured = withNotes(result, notes);
  const first = notes.length === 0 ? (shaped?.text ?? text) : JSON.stringify(structured);
  return {
    content: [first, ...notes].map((text) => ({ type: 'text' as const, text })),
    structuredContent: structured,
    ...(failed ? { isError: true } : {}),
  };
}

/** Most characters of the note on shortening (it lists the cuts, then says how to get the rest). */
const SHAPE_NOTE_CHARS = 1_000;
/** The room the note on shortening may take. */
const LONGEST_NOTE = 'x'.repeat(SHAPE_NOTE_CHARS);
/** What a shortened response keeps at least, whatever the notes take. */
const MIN_RESULT_CHARS = 1_000;
