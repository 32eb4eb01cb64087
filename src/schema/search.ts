import type { GraphQLNamedType } from 'graphql';
import type { PathStep } from './paths.js';
import { buildSearchIndex, type ItemKind, type SearchIndex, type SearchItem } from './search-index.js';
import { rankItems } from './search-rank.js';
import { parseSearch, wordsOf } from './search-words.js';
import type { SchemaView } from './view.js';

// Search over a schema, for a model that knows what it wants ("the issues of a repository", "how many
// stars") but not what the schema calls it. search-words.ts reads the words of the search, search-index.ts
// indexes the schema's (with what the schema implies: search-implied.ts), search-rank.ts scores every type
// and member. Here: the best entries, each with its path from a root field; the same member on many types
// is one entry naming the other types.

export { searchTerms, splitWords } from './search-words.js';
export { buildSearchIndex, type SearchIndex } from './search-index.js';

/** Most results one answer lists; the rest are counted. */
const MAX_SEARCH_RESULTS = 40;

const indexes = new WeakMap<SchemaView, Promise<SearchIndex>>();

/** The search index of a view, built on first use (in slices) and kept with the view. */
export function searchIndexOf(view: SchemaView): Promise<SearchIndex> {
  let index = indexes.get(view);
  if (index === undefined) {
    index = buildSearchIndex(view);
    indexes.set(view, index);
    index.catch(() => indexes.delete(view));
  }
  return index;
}

/** One result: an item and the types that share it. */
export interface SearchHit {
  readonly kind: ItemKind;
  readonly coordinate: string;
  readonly type: GraphQLNamedType;
  readonly description: string | null | undefined;
  readonly line: string | undefined;
  readonly path: readonly PathStep[] | undefined;
  /** 2 named exactly as the search, 1 the same but for plurals, 0 ranked by score. */
  readonly rank: number;
  /** The other types with the same member (same SDL line) among the matches, best first. */
  readonly alsoOn: readonly string[];
}

/** What a search found: the best hits, how many there are in all, and the words nothing has. */
export interface SearchResult {
  readonly hits: readonly SearchHit[];
  /** Items matched. */
  readonly total: number;
  /** Hits once alike members are grouped. */
  readonly entries: number;
  /** Words of the search that no name or description holds (they counted for nothing). */
  readonly unmatched: readonly string[];
  /** Words of the search the schema has only as words APIs use alike, and the schema's words they were read as. */
  readonly readAs: ReadonlyMap<string, readonly string[]>;
}

/** Every type and member ranked for a search: the best `limit` entries, best first. */
export function searchSchema(index: SearchIndex, search: string, limit = MAX_SEARCH_RESULTS): SearchResult {
  const { ranked, unmatched, readAs } = rankItems(index, parseSearch(search), wordsOf(search));
  // The same member on many types (GitHub has `pullRequest: PullRequest` on dozens of payloads and events)
  // would fill the answer with one line: it is shown once, with the other types named after it.
  const groups: Array<{ first: SearchItem; tier: number; alsoOn: string[] }> = [];
  const byGroup = new Int32Array(index.groupCount).fill(-1);
  for (const { id, tier } of ranked) {
    const item = index.items[id]!;
    const known = item.group === -1 ? -1 : byGroup[item.group]!;
    if (known !== -1) {
      // Only the entries shown name their other types.
      if (known < limit) groups[known]!.alsoOn.push(item.type.name);
    } else {
      if (item.group !== -1) byGroup[item.group] = groups.length;
      groups.push({ first: item, tier, alsoOn: [] });
    }
  }
  const paths = index.view.paths;
  const hits = groups.slice(0, limit).map(({ first: item, tier, alsoOn }) => ({
    kind: item.kind,
    coordinate: item.coordinate,
    type: item.type,
    description: item.description,
    line: item.line,
    path: pathOf(paths, item),
    rank: tier,
    alsoOn,
  }));
  return { hits, total: ranked.length, entries: groups.length, unmatched, readAs };
}

function pathOf(
  paths: ReadonlyMap<string, readonly PathStep[]>,
  item: SearchItem,
): readonly PathStep[] | undefined {
  const toType = paths.get(item.type.name);
  if (toType === undefined || item.kind === 'type' || item.kind === 'enumValue') return toType;
  const field = item.coordinate.slice(item.type.name.length + 1);
  const step: PathStep = {
    kind: item.kind === 'field' ? 'field' : 'inputField',
    type: item.type.name,
    field,
  };
  return [...toType, step];
}
