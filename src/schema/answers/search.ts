import type { GraphQLSchema } from 'graphql';
import { formatPath } from '../paths.js';
import { listSizeLines } from './list-sizes.js';
import type { SearchHit, SearchResult } from '../search.js';
import { count, firstSentence, kindOf, stringLiteral, typeHeader } from '../sdl-lines.js';
import { thousands } from '../../common/text.js';
import { clampText, joinBlocks, listWithin } from './text-budget.js';

// The answer to a search of the schema (schema/search.ts finds and ranks the hits): what was found,
// and each hit with its path from a root field, within the character budget.

/**
 * The answer to a search: a line saying what was found and what is shown, then each hit with its path from
 * a root field, its description's first sentence and its SDL line (and, for a list field, what it counts toward
 * a query's cost, from `costs`); at most `maxChars` long.
 */
export function renderSearch(
  search: string,
  terms: readonly string[],
  found: SearchResult,
  maxChars: number,
  costs?: GraphQLSchema,
): string {
  const quoted = stringLiteral(search.trim());
  if (found.total === 0) {
    return clampText(
      `# search ${quoted}: no type or field has ${terms.length > 1 ? 'any of these words' : 'this word'} ` +
        'in its name or description. Try another word (a synonym, a shorter word), or read the overview ' +
        '(call without typeNames and search).',
      maxChars,
    );
  }
  const blocks = found.hits.map((hit) => renderHit(hit, costs));
  // The most blocks that fit together with the line that says how many are shown.
  for (let shown = blocks.length; ; shown--) {
    const cut = shown < blocks.length;
    const text = joinBlocks([summary(quoted, terms, found, shown, cut, maxChars), ...blocks.slice(0, shown)]);
    if (text.length <= maxChars || shown === 0) return clampText(text, maxChars);
  }
}

function summary(
  quoted: string,
  terms: readonly string[],
  found: SearchResult,
  shown: number,
  cut: boolean,
  maxChars: number,
): string {
  const { total, entries, unmatched, readAs } = found;
  const grouped =
    entries < total ? `, ${thousands(entries)} entries (the same member on several types is one entry)` : '';
  let showing =
    shown === entries ? (entries === 1 ? '' : ', best first') : `; the best ${thousands(shown)} shown`;
  if (cut) showing += ` (cut to fit the ${thousands(maxChars)}-character limit, --maxSchemaChars)`;
  const searched =
    terms.join(' ') === quoted.slice(1, -1).toLowerCase() ? '' : ` (searched as: ${terms.join(', ')})`;
  const unused =
    unmatched.length === 0
      ? ''
      : ` No name or description has ${unmatched.join(', ')}: not counted. Add other words for ` +
        `${unmatched.length === 1 ? 'it' : 'them'} that the API may use.`;
  // The schema's own word for what the search calls otherwise: the model's next search can use it.
  const read = [...readAs].map(([word, as]) => `${word} as ${as.join(', ')}`).join('; ');
  const alike = read === '' ? '' : ` Read ${read} (words APIs use alike).`;
  const how =
    entries > 1
      ? ' Ranked by shared words: whole words of names first, then parts of words, descriptions and what the' +
        " schema implies; the schema's own words (as in the names below) rank best."
      : '';
  const examples = found.hits
    .slice(0, 2)
    .map((hit) => JSON.stringify(hit.coordinate))
    .join(', ');
  return `# search ${quoted}${searched}: ${matches(total)}${grouped}${showing}.${unused}${alike}${how} Full definitions: typeNames: [${examples}].`;
}

function matches(n: number): string {
  return `${thousands(n)} ${n === 1 ? 'match' : 'matches'}`;
}

function renderHit(hit: SearchHit, costs: GraphQLSchema | undefined): string {
  const where =
    hit.path === undefined
      ? 'no path from a root field'
      : hit.path.length === 0
        ? 'a root type'
        : `path: ${formatPath(hit.path)}`;
  const label = hit.kind === 'type' ? `${hit.coordinate} (${kindOf(hit.type)})` : hit.coordinate;
  const lines = [`# ${label} — ${where}`];
  const description = firstSentence(hit.description);
  if (description !== '') lines.push(stringLiteral(description));
  lines.push(hit.kind === 'type' ? typeHeader(hit.type) : hit.line!);
  if (hit.kind === 'field' && costs !== undefined) {
    lines.push(...listSizeLines(costs, hit.type, hit.coordinate.slice(hit.coordinate.indexOf('.') + 1)));
  }
  if (hit.alsoOn.length > 0) {
    const { text } = listWithin(hit.alsoOn, 240);
    lines.push(`# also on ${count(hit.alsoOn.length, 'more type')}: ${text}`);
  }
  return lines.join('\n');
}
