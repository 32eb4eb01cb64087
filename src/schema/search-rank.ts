import { CONVENTION_OF_TERM, HINTS } from './search-implied.js';
import { FIELD_COUNT, fieldCount, type Posting, type SearchIndex, type SearchItem } from './search-index.js';
import { alikeStems } from './search-thesaurus.js';
import { singular, stem, type SearchWord, type WordRole } from './search-words.js';

// How well each type and member answers a search: BM25F (Robertson and Zaragoza's BM25 over weighted
// fields), where each word of the search counts by how rare it is in the schema, how often an item holds it
// and where (its own name most, then its type's name, description, input and what the schema implies), with
// long names and descriptions counting less. A word matches a schema word whole (best), by stem (issues,
// issue), or in part (repo, repository: least). Items that hold more of the search's words rank higher; so
// do items nearer a root field, and a mutation above its own input and payload types. An item named exactly
// as the search ranks first whatever its score.

/**
 * How much each field counts, in FIELD's order, for a word of what is asked and for a word of where
 * ("the issues of a repository": Repository.issues, the repository its type), and how much the word counts.
 */
const ROLES: Record<WordRole, { fields: readonly number[]; weight: number }> = {
  target: { fields: [3, 2, 1, 0.5, 0.8, 1, 1.5, 0.6], weight: 1 },
  context: { fields: [1.5, 3, 1, 0.5, 0.8, 1, 1.5, 1.2], weight: 0.7 },
  purpose: { fields: [3, 1.5, 1, 0.5, 0.8, 1, 1.5, 0.6], weight: 0.3 },
};
/** How much a field's length lowers its counts (0: not at all, 1: in proportion). */
const LENGTH_NORMS = [0.75, 0.75, 0.5, 0.5, 0.5, 0.2, 0, 0.5];
/** How fast repeated words stop counting (BM25's k1). */
const SATURATION = 1.2;
/**
 * What a match counts: whole word, same stem, a synonym the schema uses, a word of the same meaning in APIs
 * in general (search-thesaurus.ts), one word starting the other.
 */
const MATCH = {
  whole: 1,
  singular: 0.95,
  stem: 0.75,
  synonym: 0.6,
  alike: 0.45,
  partial: 0.35,
} as const;
/** What the other matches of a word in an item add to its best one (stargazers, starred for "stars"). */
const SECONDARY = 0.3;
/** At most this share of the best match. */
const MAX_SECONDARY = 0.5;
/** What two words of a search side by side in a name add ("pull request" in PullRequest.reviews, not in requestReviews), in their rarity. */
const PAIR_BONUS = 0.5;
/** How much of an item's score depends on how much of its name the search explains (1: all of it). */
const NAME_SHARE = 0.4;
/** What a word that only hints at a convention counts ("who": a person). */
const HINT_WEIGHT = 0.5;
/** What a mutation gains when the search starts with one of the schema's actions ("delete branch"). */
const ACTION_BOOST = 1.5;
/** Least share of a score an item keeps when it has only some of the search's words. */
const COVERAGE_FLOOR = 0.5;
/** How much each step further from a root lowers a score. */
const DEPTH_COST = 0.12;
/** Steps counted for a type no root field reaches. */
const UNREACHED_DEPTH = 6;
/** What an enum value keeps of its score: a value to pass or read, seldom what a search is for. */
const ENUM_VALUE_SHARE = 0.6;
/** What a mutation's own input and payload types (and their members) keep of their score. */
const PLUMBING_SHARE = 0.35;
/** Most of the schema's words an answer names for a search word read as words alike. */
const MAX_READ_AS = 3;
/** Shortest search word matched in part, and shortest schema word a search word may start with. */
const MIN_PARTIAL = 3;

/** One ranked item. */
export interface Ranked {
  readonly id: number;
  /** 2: named exactly as the search, 1: the same but for plurals, 0: by score. */
  readonly tier: number;
  readonly score: number;
}

/** The ranked items (every item that matches a word, best first), and the words nothing matched. */
export function rankItems(
  index: SearchIndex,
  words: readonly SearchWord[],
  /** Every word of the search, stopwords too, for the names it spells exactly (OrganizationOrUser). */
  spelled: readonly string[] = words.map(({ word }) => word),
): { ranked: Ranked[]; unmatched: string[]; readAs: ReadonlyMap<string, readonly string[]> } {
  const matched = scoreWords(index, words);
  const joined = spelled.join('');
  const joinedSingular = spelled.map(singular).join('');
  const first = words.find(({ role }) => role === 'target')?.word;
  // A search that starts with one of the schema's verbs ("delete branch") asks for a mutation.
  const acting = first !== undefined && index.implied.actions.has(first);
  const mutation = index.view.schema.getMutationType();
  const pairs = pairsOf(words, matched.rarities);
  const explains = explainer(words);
  const { scores, covered, weightOfWords } = matched;
  const ranked: Ranked[] = [];
  for (let id = 0; id < scores.length; id++) {
    if (scores[id] === 0) continue;
    const item = index.items[id]!;
    let score = scores[id]!;
    for (const pair of pairs) if (sideBySide(item.nameStems, pair)) score += pair.bonus;
    const coverage = weightOfWords === 0 ? 1 : Math.min(1, covered[id]! / weightOfWords);
    const isMutation = item.kind === 'field' && item.type === mutation;
    score *=
      (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage) *
      (1 - NAME_SHARE + NAME_SHARE * explains(item.nameStems)) *
      prior(index, id, item) *
      (isMutation && acting ? ACTION_BOOST : 1);
    const tier = item.joined.includes(joined) ? 2 : item.joinedSingular.includes(joinedSingular) ? 1 : 0;
    ranked.push({ id, tier, score });
  }
  ranked.sort((a, b) => b.tier - a.tier || b.score - a.score || a.id - b.id);
  return { ranked, unmatched: matched.unmatched, readAs: matched.readAs };
}

interface WordScores {
  /** Per item: the BM25F score of the search's words. */
  readonly scores: Float64Array;
  /** Per item: the weight of the words it holds, of `weightOfWords` in all. */
  readonly covered: Float64Array;
  readonly weightOfWords: number;
  /** How rare each word is in the schema. */
  readonly rarities: ReadonlyMap<string, number>;
  readonly unmatched: string[];
  readonly readAs: Map<string, string[]>;
}

/** Each item's BM25F score for the search's words, and how much of the search it holds. */
function scoreWords(index: SearchIndex, words: readonly SearchWord[]): WordScores {
  const count = index.items.length;
  const scores = new Float64Array(count);
  const covered = new Float64Array(count);
  const best = new Float64Array(count);
  const sum = new Float64Array(count);
  const seen = new Uint8Array(count);
  const unmatched: string[] = [];
  const readAs = new Map<string, string[]>();
  const rarities = new Map<string, number>();
  let weightOfWords = 0;
  for (const { word, role } of words) {
    const matches = matchesOf(index, word);
    if (matches.length === 0) {
      unmatched.push(word);
      continue;
    }
    const alike = alikeWords(matches);
    if (alike.length > 0) readAs.set(word, alike);
    const { fields } = ROLES[role];
    const hint = HINTS.has(word);
    const roleWeight = ROLES[role].weight * (hint ? HINT_WEIGHT : 1);
    // How rare the word is: the items that hold one of its forms. A part or a synonym is no rarer.
    const rarity = inverseFrequency(count, holders(matches, seen)) * roleWeight;
    rarities.set(word, rarity);
    // A word counts by its best match in an item, and a little by its others there.
    const touched: number[] = [];
    let weight = 0;
    for (const { posting, strength } of matches) {
      const idf = Math.min(inverseFrequency(count, posting.ids.length) * roleWeight, rarity);
      weight = Math.max(weight, idf * strength);
      const factor = strength * idf;
      for (let i = 0; i < posting.ids.length; i++) {
        const id = posting.ids[i]!;
        const value = factor * saturated(index, id, posting, i, fields);
        if (best[id] === 0) touched.push(id);
        sum[id]! += value;
        if (value > best[id]!) best[id] = value;
      }
    }
    for (const id of touched) {
      scores[id]! += best[id]! + Math.min(SECONDARY * (sum[id]! - best[id]!), MAX_SECONDARY * best[id]!);
      if (!hint) covered[id]! += weight;
      best[id] = 0;
      sum[id] = 0;
    }
    if (!hint) weightOfWords += weight;
  }
  return { scores, covered, weightOfWords, rarities, unmatched, readAs };
}

/**
 * The schema's words a search word was read as, when it has none of its own forms (and no synonym the schema
 * uses) but words APIs use alike: "picture" as avatar, image. The most used first.
 */
function alikeWords(matches: readonly Match[]): string[] {
  if (matches.some(({ strength }) => strength >= MATCH.synonym)) return [];
  // A posting per schema word (search-index.ts): no word comes twice.
  return matches
    .filter(({ strength }) => strength === MATCH.alike)
    .sort((a, b) => b.posting.ids.length - a.posting.ids.length)
    .slice(0, MAX_READ_AS)
    .map(({ posting }) => posting.word);
}

/**
 * How much of a name the search explains: addPullRequestReview less than PullRequest.reviews, for "pull
 * request reviews". Each name word is looked up once per search.
 */
function explainer(words: readonly SearchWord[]): (names: readonly string[]) => number {
  const stems = words.map(({ word }) => stem(word));
  const searched = new Map<string, boolean>();
  const isSearched = (name: string) => {
    let known = searched.get(name);
    if (known === undefined) {
      known = stems.some((word) => word === name || partOf(word, name));
      searched.set(name, known);
    }
    return known;
  };
  return (names) => {
    if (names.length === 0) return 1;
    let named = 0;
    for (const name of names) if (isSearched(name)) named++;
    return named / names.length;
  };
}

interface Match {
  readonly posting: Posting;
  readonly strength: number;
}

/** The schema words a search word matches, with how strongly. */
function matchesOf(index: SearchIndex, word: string): Match[] {
  const wordSingular = singular(word);
  const wordStem = stem(word);
  const synonyms = index.implied.synonyms.get(wordStem) ?? [];
  const alike = alikeStems(wordStem);
  const matches: Match[] = [];
  for (const posting of index.postings) {
    const strength =
      posting.word === word
        ? MATCH.whole
        : posting.singular === wordSingular
          ? MATCH.singular
          : posting.stem === wordStem
            ? MATCH.stem
            : synonyms.includes(posting.stem)
              ? MATCH.synonym
              : alike.has(posting.stem)
                ? MATCH.alike
                : partOf(wordStem, posting.stem)
                  ? MATCH.partial
                  : 0;
    if (strength > 0) matches.push({ posting, strength });
  }
  const convention = CONVENTION_OF_TERM[word];
  const posting = convention === undefined ? undefined : index.byWord.get(convention);
  if (posting !== undefined) matches.push({ posting, strength: MATCH.whole });
  return matches;
}

interface Pair {
  readonly first: string;
  readonly second: string;
  readonly bonus: number;
}

/** Each two words side by side in the search, as stems, with what finding them so in a name adds. */
function pairsOf(words: readonly SearchWord[], rarities: ReadonlyMap<string, number>): Pair[] {
  const pairs: Pair[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i]!.word, words[i + 1]!.word];
    const rarity = Math.min(rarities.get(a) ?? 0, rarities.get(b) ?? 0);
    if (rarity > 0) pairs.push({ first: stem(a), second: stem(b), bonus: PAIR_BONUS * rarity });
  }
  return pairs;
}

function sideBySide(stems: readonly string[], { first, second }: Pair): boolean {
  for (let i = 0; i + 1 < stems.length; i++) if (stems[i] === first && stems[i + 1] === second) return true;
  return false;
}

/** How many items hold a form of the word: its whole, singular or stemmed matches, else any of its matches. */
function holders(matches: readonly Match[], seen: Uint8Array): number {
  const strong = matches.filter(({ strength }) => strength >= MATCH.stem);
  const counted = strong.length > 0 ? strong : matches;
  let holding = 0;
  for (const { posting } of counted) {
    for (const id of posting.ids) {
      if (seen[id] === 0) holding++;
      seen[id] = 1;
    }
  }
  for (const { posting } of counted) for (const id of posting.ids) seen[id] = 0;
  return holding;
}

/** Whether one word starts the other: repo and repository, num and number; never a convention. */
function partOf(a: string, b: string): boolean {
  if (a.length < MIN_PARTIAL || b.length < MIN_PARTIAL || b.startsWith(':')) return false;
  return a.length < b.length ? b.startsWith(a) : a.startsWith(b);
}

function inverseFrequency(count: number, holders: number): number {
  return Math.log(1 + (count - holders + 0.5) / (holders + 0.5));
}

/** BM25F's saturated count of one word in one item: its fields' counts weighed and length-normalised. */
function saturated(
  index: SearchIndex,
  id: number,
  posting: Posting,
  at: number,
  weights: readonly number[],
): number {
  let sum = 0;
  for (let field = 0; field < FIELD_COUNT; field++) {
    const n = fieldCount(posting, at, field);
    if (n === 0) continue;
    const length = index.lengths[id * FIELD_COUNT + field]! / index.averageLengths[field]!;
    sum += (weights[field]! * n) / (1 - LENGTH_NORMS[field]! + LENGTH_NORMS[field]! * length);
  }
  return (sum * (SATURATION + 1)) / (sum + SATURATION);
}

/** What an item's place in the schema adds: nearer a root field is more likely what a query needs. */
function prior(index: SearchIndex, id: number, item: SearchItem): number {
  const depth = index.depths[id] === -1 ? UNREACHED_DEPTH : index.depths[id]!;
  const plumbing =
    (item.plumbingOf === undefined ? 1 : PLUMBING_SHARE) * (item.kind === 'enumValue' ? ENUM_VALUE_SHARE : 1);
  return plumbing / (1 + DEPTH_COST * Math.max(0, depth - 1));
}
