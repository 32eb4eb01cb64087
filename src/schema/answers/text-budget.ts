// Every answer of graphql_introspect fits a character budget (--maxSchemaChars). These are the few rules
// the renderers share for that: how blocks are joined, how lists are cut, and the last-resort cut.

import { thousands } from '../../common/text.js';

/** Between blocks of SDL, as printSchema separates types. */
export const BLOCK_SEPARATOR = '\n\n';

/** Joins blocks of text with blank lines. */
export function joinBlocks(blocks: readonly string[]): string {
  return blocks.filter((block) => block !== '').join(BLOCK_SEPARATOR);
}

/**
 * `items` joined by `separator`, as many as fit in `maxChars` with, when some are left out, "… N more"
 * after them. Returns the text and how many items it shows.
 */
export function listWithin(
  items: readonly string[],
  maxChars: number,
  separator = ', ',
): { text: string; shown: number } {
  const whole = items.join(separator);
  if (whole.length <= maxChars) return { text: whole, shown: items.length };
  let text = '';
  let shown = 0;
  for (const item of items) {
    const next = shown === 0 ? item : `${text}${separator}${item}`;
    const more = moreSuffix(items.length - shown - 1, shown + 1 > 0);
    if (next.length + more.length > maxChars) break;
    text = next;
    shown++;
  }
  return { text: text + moreSuffix(items.length - shown, shown > 0), shown };
}

function moreSuffix(left: number, afterItems: boolean): string {
  if (left <= 0) return '';
  return `${afterItems ? ' ' : ''}… ${thousands(left)} more`;
}

/** What the last-resort cut appends. */
export const CUT_LINE = '# … cut here to stay within the character limit (--maxSchemaChars)';

/**
 * `text` if it is at most `maxChars` long; else its start, cut at a line end, followed by CUT_LINE. The
 * renderers fit their answers themselves: this only guarantees the budget whatever happens.
 */
export function clampText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = maxChars - CUT_LINE.length - 1;
  if (room <= 0) return text.slice(0, Math.max(0, maxChars - 1)) + '…';
  const lineEnd = text.lastIndexOf('\n', room);
  const start = lineEnd > room / 2 ? text.slice(0, lineEnd) : text.slice(0, room);
  return `${start}\n${CUT_LINE}`;
}
