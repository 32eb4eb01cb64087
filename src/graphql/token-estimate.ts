// How many tokens a model's tokenizer makes of a text, estimated in one pass over its characters, without a
// tokenizer's tables (megabytes, and one per model). Characters alone are a poor measure: 40,000 characters of
// English JSON are about 13,000 tokens, of emoji or CJK ideographs 30,000 to 75,000. The estimate follows
// what byte-pair encodings do with each kind of character, and errs high: against OpenAI's o200k it is 0.9 to
// 1.4 times the real count for JSON of English text, numbers, URLs, UUIDs, hex, base64, random ASCII and
// letters, emoji and symbols, 1.2 to 2.1 times for Chinese, Japanese, Korean, Russian, Arabic, Hindi and Thai
// (test/unit/token-estimate.test.ts checks these), and low (0.5 to 0.7) only for random, meaningless CJK
// ideographs or Hangul syllables.

/** Tokens allowed per character of a budget: 40,000 characters, about 20,000 tokens. */
export const TOKENS_PER_BUDGET_CHAR = 0.5;

/**
 * For `text` shortened to a budget of `maxChars` characters: the smaller budget of characters to shorten it
 * to again, in proportion, when its estimated tokens are over TOKENS_PER_BUDGET_CHAR per character of
 * `maxChars` (dense text: CJK, emoji, random strings); undefined when they are not.
 */
export function denserBudget(text: string, maxChars: number): number | undefined {
  const maxTokens = maxChars * TOKENS_PER_BUDGET_CHAR;
  // Short text cannot be over, whatever its characters: no need to read it.
  if (text.length * MAX_TOKENS_PER_CHAR <= maxTokens) return undefined;
  const tokens = estimateTokens(text);
  if (tokens <= maxTokens) return undefined;
  return Math.floor(text.length * (maxTokens / tokens) * 0.97);
}

/** The most one UTF-16 code unit can cost: a symbol or rare ideograph (three UTF-8 bytes). */
export const MAX_TOKENS_PER_CHAR = 2.5;

const enum Kind {
  Other,
  Letter,
  Digit,
  Space,
  Punctuation,
}

/** Letters a token of ordinary words spans. */
const LETTERS_PER_TOKEN = 5;
/** Digits a token spans (o200k splits numbers into groups of three). */
const DIGITS_PER_TOKEN = 3;

/** The estimated token count of `text`. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let kind = Kind.Other;
  let run = 0; // characters in the current run of one kind
  let consonants = 0; // consonants in a row, in a run of letters
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      if (kind === Kind.Space) tokens += 1;
      kind = Kind.Other;
      run = 0;
      tokens += costOfNonAscii(c);
      if (c >= 0xd800 && c <= 0xdbff) i++; // the second half of a surrogate pair costs nothing more
      continue;
    }
    const upper = c >= 65 && c <= 90;
    const next =
      upper || (c >= 97 && c <= 122)
        ? Kind.Letter
        : c >= 48 && c <= 57
          ? Kind.Digit
          : isSpace(c)
            ? Kind.Space
            : Kind.Punctuation;
    if (next !== kind) {
      // One space merges into the word after it; other runs of white space are a token of their own.
      if (kind === Kind.Space && (next !== Kind.Letter || run > 1)) tokens += 1;
      kind = next;
      run = 0;
      consonants = 0;
    }
    if (kind === Kind.Letter) {
      consonants = isVowel(c | 32) ? 0 : consonants + 1;
      // Words are a token per few letters; capitals inside a run and long runs of consonants (random
      // strings, identifiers, base64) split them more.
      if (run % LETTERS_PER_TOKEN === 0) tokens += 1;
      else if (upper) tokens += 0.75;
      else if (consonants > 2 && c !== text.charCodeAt(i - 1)) tokens += 0.5; // (a letter repeated merges)
    } else if (kind === Kind.Digit) {
      if (run % DIGITS_PER_TOKEN === 0) tokens += 1;
    } else if (kind === Kind.Punctuation) {
      // A quote merges with the punctuation next to it (`":"`, `","`, `{"` are one token each).
      if (c !== 34 || run === 0) tokens += 1;
    }
    run++;
  }
  if (kind === Kind.Space) tokens += 1;
  return Math.ceil(tokens);
}

function costOfNonAscii(c: number): number {
  if (c < 0x800) return 0.5; // Latin with accents, Greek, Cyrillic, Hebrew, Arabic: two UTF-8 bytes
  if (c >= 0xd800 && c <= 0xdbff) return 2.5; // emoji and the other supplementary planes: four bytes
  if (c < 0x2000 || (c >= 0x3040 && c < 0x3100)) return 0.75; // Indic, Thai, Georgian, ...; kana
  if ((c >= 0x4e00 && c < 0xa000) || (c >= 0xac00 && c < 0xd7b0)) return 1; // CJK ideographs, Hangul
  return MAX_TOKENS_PER_CHAR; // symbols, arrows, box drawing, rare ideographs, private use
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function isVowel(lower: number): boolean {
  return lower === 97 || lower === 101 || lower === 105 || lower === 111 || lower === 117 || lower === 121;
}
