import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLNamedType } from 'graphql';
import type { PathStep } from './paths.js';
import type { SchemaView } from './view.js';
import { enumValueLine, fieldSignature, inputValueLine } from './sdl-lines.js';
import { createYielder, mapSliced } from '../common/time-slice.js';

// Search over a schema's names and descriptions, for a model that knows what it wants ("the issues of a
// repository") but not what the schema calls it. Names are split into words (camelCase, PascalCase,
// digits), words are compared without case and without a plural ending, a word of three letters or more
// also matches the words it starts, and every word asked for must match, in the name or in the description
// (a member's name counts with its type's: "repository issues" is Repository.issues).
// Ranking: the exact name first, then the exact name but for plurals, then names holding every word (fewer
// other words first), then names and descriptions together; at equal rank types before members, and what
// is fewer steps from a root first. The same member on many types is one entry naming the other types.

/** Most results one answer lists; the rest are counted, and more words narrow them. */
const MAX_SEARCH_RESULTS = 40;

type ItemKind = 'type' | 'field' | 'inputField' | 'enumValue';

interface Item {
  readonly kind: ItemKind;
  /** The type itself, or the type the member belongs to. */
  readonly type: GraphQLNamedType;
  /** `Repository` or `Repository.issues`. */
  readonly coordinate: string;
  readonly ownWords: readonly string[];
  /** For members: the type's words, then the member's. */
  readonly qualifiedWords: readonly string[];
  readonly description: string | null | undefined;
  /** The member's SDL line, for members. */
  readonly line?: string;
  /** The names run together, plain and without plurals, for the exact-name ranks. */
  readonly joined: readonly string[];
  readonly joinedStems: readonly string[];
}

/** A word of the index with its stem, computed once. */
interface Posting {
  readonly word: string;
  readonly stem: string;
  readonly ids: readonly number[];
}

/** A schema's words, indexed once per view. */
export interface SearchIndex {
  readonly view: SchemaView;
  readonly items: readonly Item[];
  /** Each word of a name, with the items whose name holds it. */
  readonly nameWords: readonly Posting[];
  /** Each word of a description, with the items whose description holds it. */
  readonly descriptionWords: readonly Posting[];
}

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

/** Indexes every type, field, input field and enum value of a view by the words of its name and description. */
async function buildSearchIndex(view: SchemaView): Promise<SearchIndex> {
  const items: Item[] = [];
  const nameWords = new Map<string, number[]>();
  const descriptionWords = new Map<string, number[]>();
  const add = (partial: Omit<Item, 'joined' | 'joinedStems'>) => {
    const names = [partial.ownWords, partial.qualifiedWords];
    const item: Item = {
      ...partial,
      joined: names.map((words) => words.join('')),
      joinedStems: names.map((words) => words.map(stem).join('')),
    };
    const id = items.push(item) - 1;
    // The whole name is a word too, so that "oauth" finds OAuthApplication, which splits as O-Auth-Application.
    const own = new Set([...item.qualifiedWords, item.coordinate.split('.').pop()!.toLowerCase()]);
    for (const word of own) post(nameWords, word, id);
    for (const word of new Set(wordsOf(item.description ?? ''))) post(descriptionWords, word, id);
  };
  // Mostly built in the background, after an answer (answers/answer.ts): short slices keep the wait of the
  // calls that come meanwhile short.
  const yieldNow = createYielder(1);
  for (const type of view.types) {
    const typeWords = splitWords(type.name);
    add({
      kind: 'type',
      type,
      coordinate: type.name,
      ownWords: typeWords,
      qualifiedWords: typeWords,
      description: type.description,
    });
    const member = (kind: ItemKind, name: string, description: string | null | undefined, line: string) => {
      const ownWords = splitWords(name);
      add({
        kind,
        type,
        coordinate: `${type.name}.${name}`,
        ownWords,
        qualifiedWords: [...typeWords, ...ownWords],
        description,
        line,
      });
    };
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        member('field', field.name, field.description, fieldSignature(field));
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        member('inputField', field.name, field.description, inputValueLine(field));
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues())
        member('enumValue', value.name, value.description, enumValueLine(value));
    }
    const pause = yieldNow();
    if (pause !== undefined) await pause;
  }
  const postings = (index: Map<string, number[]>): Promise<Posting[]> =>
    mapSliced(index, ([word, ids]) => ({ word, stem: stem(word), ids }), 1);
  return {
    view,
    items,
    nameWords: await postings(nameWords),
    descriptionWords: await postings(descriptionWords),
  };
}

function post(index: Map<string, number[]>, word: string, id: number): void {
  const ids = index.get(word);
  if (ids === undefined) index.set(word, [id]);
  else if (ids[ids.length - 1] !== id) ids.push(id);
}

/** `pullRequests` → pull, requests; `HTMLUrl` → html, url; `OAuth2App` → o, auth, 2, app. */
export function splitWords(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((word) => word.toLowerCase());
}

/** The words of free text, names in it split as names are. */
function wordsOf(text: string): string[] {
  return (text.match(/[A-Za-z0-9]+/g) ?? []).flatMap(splitWords);
}

/** A word without its plural ending: issues → issue, repositories → repository, branches → branch. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

// Words that say nothing about a schema: "the field that lists a repository's issues" searches for
// "field lists repository issues". They are kept when nothing else is left.
const STOPWORDS = new Set(
  'a an and any are as at be by can do for from get has have how i in into is it its me my of on or s that the their them there these this those to what when where which who with'.split(
    ' ',
  ),
);

/** Most words of a search used: each is a bit of a mask, and more would say nothing a name could match. */
const MAX_SEARCH_TERMS = 16;

/** The words of a search, lowercased, without stopwords (unless it has only those), each once. */
export function searchTerms(search: string): string[] {
  const words = [...new Set(wordsOf(search))];
  const meaningful = words.filter((word) => !STOPWORDS.has(word));
  return (meaningful.length > 0 ? meaningful : words).slice(0, MAX_SEARCH_TERMS);
}

interface Term {
  readonly word: string;
  readonly stem: string;
}

/** Whether a term matches a word: the same, the same but for plurals, or (3 letters or more) its start. */
function termMatch(term: Term, word: string, wordStem = stem(word)): boolean {
  return (
    word === term.word || wordStem === term.stem || (term.word.length >= 3 && word.startsWith(term.word))
  );
}

/** One result: an item and why it ranks where it does. */
export interface SearchHit {
  readonly kind: ItemKind;
  readonly coordinate: string;
  readonly type: GraphQLNamedType;
  readonly description: string | null | undefined;
  readonly line: string | undefined;
  readonly path: readonly PathStep[] | undefined;
  /** 4 exact name, 3 exact but for plurals, 2 every word in the name, 1 in name and description, 0 some words. */
  readonly rank: number;
  /** The other types with the same member (same SDL line) among the matches, best first. */
  readonly alsoOn: readonly string[];
}

/** What a search found: the best hits, how many there are in all, and whether they have every word. */
export interface SearchResult {
  readonly hits: readonly SearchHit[];
  /** Items matched. */
  readonly total: number;
  /** Hits once alike members are grouped. */
  readonly entries: number;
  readonly all: boolean;
}

/** The items matching every term (or, failing that, the most terms): the best `limit`, best first. */
export function searchSchema(
  index: SearchIndex,
  words: readonly string[],
  limit = MAX_SEARCH_RESULTS,
): SearchResult {
  const terms: Term[] = words.map((word) => ({ word, stem: stem(word) }));
  const nameMask = matchMasks(index.nameWords, terms);
  const descriptionMask = matchMasks(index.descriptionWords, terms);
  const full = (1 << terms.length) - 1;
  const candidates = new Map<number, number>(nameMask);
  for (const [id, mask] of descriptionMask) candidates.set(id, (candidates.get(id) ?? 0) | mask);
  let wanted = [...candidates].filter(([, mask]) => mask === full).map(([id]) => id);
  const all = wanted.length > 0;
  if (!all) {
    // Nothing has every word: keep what has the most of them.
    const most = Math.max(0, ...[...candidates.values()].map(bitCount));
    wanted =
      most === 0 ? [] : [...candidates].filter(([, mask]) => bitCount(mask) === most).map(([id]) => id);
  }
  const joined = words.join('');
  const joinedStem = terms.map((term) => term.stem).join('');
  const paths = index.view.paths;
  const queryRoot = index.view.schema.getQueryType()?.name;
  const scored = wanted.map((id) => {
    const item = index.items[id]!;
    const inName = nameMask.get(id) ?? 0;
    let rank = 0;
    if (item.joined.includes(joined)) rank = 4;
    else if (item.joinedStems.includes(joinedStem)) rank = 3;
    else if (all && inName === full) rank = 2;
    else if (all) rank = 1;
    // Words of the name no term matched: PullRequest ranks above PullRequestReviewComment for "pull request".
    const names = terms.every((term) => item.ownWords.some((word) => termMatch(term, word)))
      ? item.ownWords
      : item.qualifiedWords;
    const extra = names.filter((word) => !terms.some((term) => termMatch(term, word))).length;
    const loose = terms.filter((term) => !names.includes(term.word)).length;
    const toType = paths.get(item.type.name);
    const member = item.kind === 'field' || item.kind === 'inputField' ? 1 : 0;
    const depth = toType === undefined ? Number.POSITIVE_INFINITY : toType.length + member;
    // At equal length, a path from the query root is the more useful one.
    const fromQuery = (toType?.[0]?.type ?? item.type.name) === queryRoot ? 0 : 1;
    return { item, rank, extra, loose, depth, fromQuery };
  });
  scored.sort(
    (a, b) =>
      b.rank - a.rank ||
      a.extra - b.extra ||
      a.loose - b.loose ||
      KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind] ||
      a.depth - b.depth ||
      a.fromQuery - b.fromQuery ||
      (a.item.coordinate < b.item.coordinate ? -1 : a.item.coordinate > b.item.coordinate ? 1 : 0),
  );
  // The same member on many types (GitHub has `pullRequest: PullRequest` on dozens of payloads and events)
  // would fill the answer with one line: it is shown once, with the other types named after it.
  const groups: Array<{ first: (typeof scored)[number]; alsoOn: string[] }> = [];
  const byLine = new Map<string, (typeof groups)[number]>();
  for (const hit of scored) {
    const key = hit.item.kind === 'type' ? undefined : `${hit.item.kind} ${hit.item.line}`;
    const group = key === undefined ? undefined : byLine.get(key);
    if (group !== undefined) group.alsoOn.push(hit.item.type.name);
    else {
      const created = { first: hit, alsoOn: [] };
      groups.push(created);
      if (key !== undefined) byLine.set(key, created);
    }
  }
  const hits = groups.slice(0, limit).map(({ first: { item, rank }, alsoOn }) => ({
    kind: item.kind,
    coordinate: item.coordinate,
    type: item.type,
    description: item.description,
    line: item.line,
    path: pathOf(paths, item),
    rank,
    alsoOn,
  }));
  return { hits, total: scored.length, entries: groups.length, all };
}

const KIND_ORDER: Record<ItemKind, number> = { type: 0, field: 1, inputField: 2, enumValue: 3 };

// For each item, the bit set of terms that match one of its words in this index.
function matchMasks(postings: readonly Posting[], terms: readonly Term[]): Map<number, number> {
  const masks = new Map<number, number>();
  for (const { word, stem: wordStem, ids } of postings) {
    let bits = 0;
    terms.forEach((term, i) => {
      if (termMatch(term, word, wordStem)) bits |= 1 << i;
    });
    if (bits === 0) continue;
    for (const id of ids) masks.set(id, (masks.get(id) ?? 0) | bits);
  }
  return masks;
}

function bitCount(mask: number): number {
  let bits = 0;
  for (let m = mask; m !== 0; m &= m - 1) bits++;
  return bits;
}

function pathOf(
  paths: ReadonlyMap<string, readonly PathStep[]>,
  item: Item,
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
