import { isObject } from '../common/is-object.js';

// What the server adds to a GraphQL response (shortened, headers withheld, hints, values redacted) must reach the
// model whichever part of a result its client shows: Claude Code hands the model the structured content alone
// whenever a result has it; Claude Desktop and others, the text alone. So every note is a text of its own and also
// sits in the response's `extensions`, the part the GraphQL specification leaves to implementations, under one key.

/** The key of `extensions` under which a result carries the server's notes: `{"notes": ["…"]}`. */
export const NOTES_KEY = 'graphql-mcp';

/** Most characters of one note: a long list of hints or header names must not crowd out the response. */
const MAX_NOTE_CHARS = 2_000;

/**
 * `response` with `notes` under `extensions["graphql-mcp"]`, the endpoint's own extensions kept (a key of the same
 * name from the endpoint is replaced: the notes are the server's word, not the endpoint's). The very object
 * when there are no notes.
 */
export function withNotes(
  response: Record<string, unknown>,
  notes: readonly string[],
): Record<string, unknown> {
  if (notes.length === 0) return response;
  const own = response.extensions;
  const extensions = isObject(own) ? own : {};
  return { ...response, extensions: { ...extensions, [NOTES_KEY]: { notes } } };
}

/** A note cut to at most `max` characters as a JSON string's content (escapes counted). */
export function boundedNote(note: string, max = MAX_NOTE_CHARS): string {
  const fits = (end: number) => JSON.stringify(note.slice(0, end)).length - 2 <= max - 1;
  if (note.length <= max && fits(note.length)) return note;
  let end = Math.min(note.length, max - 1);
  while (end > 0 && !fits(end)) end = Math.floor(end * 0.8);
  return `${note.slice(0, end)}…`;
}

/** How many characters of compact JSON `notes` add to a response's (at most). */
export function notesRoom(notes: readonly string[]): number {
  if (notes.length === 0) return 0;
  // ,"extensions":{…,"graphql-mcp":{"notes":[…]}}
  return JSON.stringify({ extensions: { [NOTES_KEY]: { notes } } }).length + 2;
}
