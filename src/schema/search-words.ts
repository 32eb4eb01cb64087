// The words of a search and of a schema, as the search compares them: names split into words (camelCase,
// PascalCase, snake_case, digits), lowercased, and folded to a stem (plurals, -ed, -ing), so that "starred
// repositories" and `starredRepository` share their words. The words of a search lose the words that say
// nothing about a schema ("the", "of", "which"), and the phrases a model uses for GraphQL's conventions
// become the words the schema uses for them ("how many" is a count, "my" is the viewer).

/** `pullRequests` → pull, requests; `HTMLUrl` → html, url; `OAuth2App` → o, auth, 2, app. */
export function splitWords(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((word) => word.toLowerCase());
}

/** The words of free text, names in it split as names are. */
export function wordsOf(text: string): string[] {
  return (text.match(/[A-Za-z0-9]+/g) ?? []).flatMap(splitWords);
}

/** A word without its plural ending: issues → issue, repositories → repository, branches → branch. */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * A word folded further, to what its forms share: starred → star, merging → merg (and merge → merg),
 * lockable → lock, followers → follow. Both sides of a comparison are folded alike, so the stem need not be
 * a word.
 */
export function stem(word: string): string {
  // -ing or -ed, then -able or -er, while what is left is still a word's worth: starr(ed), lock(able),
  // follow(er), regist(er)(ed).
  let base = strip(strip(singular(word), /(?:ing|ed)$/), /(?:[ai]ble|er)$/);
  if (base.length > 2 && base.endsWith('e')) base = base.slice(0, -1);
  // starr(ed) → star, committ(ed) → commit; ll, ss and zz stay (pull, address, buzz).
  if (/([b-df-hj-km-np-rtv-xz])\1$/.test(base) && !/(?:ll|ss|zz)$/.test(base)) base = base.slice(0, -1);
  return base;
}

function strip(word: string, suffix: RegExp): string {
  const found = suffix.exec(word)?.[0];
  if (found === undefined) return word;
  const rest = word.slice(0, -found.length);
  const least = found === 'ed' || found === 'ing' ? 3 : 4;
  return rest.length >= least && /[aeiouy]/.test(rest) ? rest : word;
}

// Words that say nothing about a schema: "which labels are on an issue" searches for "labels issue".
// First-person words and "how many" are not here: they are conventions (below).
const STOPWORDS = new Set(
  (
    'a about all also an and any are as at be been being by can could did do does each every for from get ' +
    'give has have here how in into is it its just of on or out over please s should show so some than that ' +
    'the their them then there these they this those to under up via was we were what where which whom ' +
    'whose why will with would you your'
  ).split(' '),
);

/** Words for the one the search acts for: they search for `me`, which the viewer convention answers. */
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', 'our', 'ours', 'us']);

/** Most words of a search used. */
const MAX_SEARCH_TERMS = 16;

/** What a word of a search is to it: what it asks for, or where (after "of", "in", …), or why. */
export type WordRole = 'target' | 'context' | 'purpose';

/** One word of a search and its role. */
export interface SearchWord {
  readonly word: string;
  readonly role: WordRole;
}

// "the issues of a repository": issues is what is asked for, repository where; "lock an issue so nobody can
// comment": comment is why, not what.
const CONTEXT_WORDS = new Set(['of', 'in', 'on', 'from', 'within', 'inside']);
const PURPOSE_WORDS = new Set(['so', 'because', 'since']);

/**
 * The words of a search, lowercased, each once, without stopwords (unless it has only those), each with its
 * role: "how many" and "number of" become `count`, first-person words become `me`, a word before "'s" or
 * after "of", "in", "on", "from" says where, and a word after "so" or "because" why.
 */
export function parseSearch(search: string): SearchWord[] {
  const words = wordsOf(search);
  const parsed: SearchWord[] = [];
  let role: WordRole = 'target';
  const add = (word: string) => {
    if (!parsed.some((known) => known.word === word)) parsed.push({ word, role });
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if ((word === 'how' && next === 'many') || (word === 'number' && next === 'of')) {
      add('count');
      i++;
    } else if (PURPOSE_WORDS.has(word)) role = 'purpose';
    else if (CONTEXT_WORDS.has(word) && role === 'target') role = 'context';
    else if (FIRST_PERSON.has(word)) add('me');
    else if (word === 's' && parsed.length > 0 && role === 'target') {
      // A possessive ("a repository's issues"): the word before it says where.
      const last = parsed.pop()!;
      parsed.push({ word: last.word, role: 'context' });
    } else if (!STOPWORDS.has(word)) add(word);
  }
  if (parsed.length === 0) for (const word of new Set(words)) parsed.push({ word, role: 'target' });
  return parsed.slice(0, MAX_SEARCH_TERMS);
}

/** The words of a search, as parseSearch reads them. */
export function searchTerms(search: string): string[] {
  return parseSearch(search).map(({ word }) => word);
}

/** The words of a description worth indexing: no stopwords, and "how many" or "number of" as `count`. */
export function textWords(text: string): string[] {
  const words = wordsOf(text);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if ((word === 'how' && next === 'many') || (word === 'number' && next === 'of')) {
      kept.push('count');
      i++;
    } else if (!STOPWORDS.has(word)) kept.push(word);
  }
  return kept;
}
