// A secret is seldom echoed verbatim: an endpoint lower-cases it (a host name), wraps it across lines (an HTML
// page), cuts it short, or encodes it. So the matcher finds runs of a secret's characters, in any case, with line
// breaks allowed between any two of them; which forms of a secret to look for is secrets.ts's business. It is
// linear in the text: a hash filter of fixed-length anchors answers "no secret ends here" for most characters.
import { REDACTED } from '../common/text.js';

/** Values shorter than this cannot be told from ordinary text, and would not be secrets. */
export const MIN_SECRET_CHARS = 8;

/** One form of a secret, folded (fold) and without whitespace, and how much of it may stay visible. */
export interface Form {
  readonly text: string;
  /** A run of at least this many of its characters is hidden. */
  readonly minRun: number;
}

interface Candidate {
  readonly form: Form;
  /** Where the anchor starts in the form. */
  readonly offset: number;
}

/**
 * Every anchor has the same length, so that all anchors that could match at one place in a text are the
 * same string, found in one lookup.
 */
const ANCHOR_CHARS = MIN_SECRET_CHARS / 2;

/** Finds the runs of a set of forms in a text and hides them. */
export class Matcher {
  /** Anchors by their text: the forms (and where in them) that a run through such an anchor may be. */
  readonly #candidates = new Map<string, Candidate[]>();
  /**
   * A hash filter of the anchors: one look-up per character of a text tells that no anchor ends there,
   * which is all a text without secrets (the common case) costs.
   */
  readonly #filter = new Uint8Array(FILTER_SIZE);
  /** Texts shorter than this cannot hold a run to hide. */
  readonly shortest: number;

  constructor(forms: Iterable<Form>) {
    let shortest = Infinity;
    for (const form of forms) {
      shortest = Math.min(shortest, form.minRun);
      // Every run of minRun characters holds one whole anchor: they start every `step` characters.
      const step = form.minRun - ANCHOR_CHARS + 1;
      for (let offset = 0; offset + ANCHOR_CHARS <= form.text.length; offset += step) {
        const anchor = form.text.slice(offset, offset + ANCHOR_CHARS);
        const list = this.#candidates.get(anchor);
        if (list === undefined) this.#candidates.set(anchor, [{ form, offset }]);
        else list.push({ form, offset });
        this.#filter[
          hash(anchor.charCodeAt(0), anchor.charCodeAt(1), anchor.charCodeAt(2), anchor.charCodeAt(3))
        ] = 1;
      }
    }
    this.shortest = shortest;
  }

  /** Whether there is anything to hide at all. */
  get empty(): boolean {
    return this.#candidates.size === 0;
  }

  /** `text` with every run hidden, and how many runs were. */
  redact(text: string): { text: string; hidden: number } {
    if (text.length < this.shortest) return { text, hidden: 0 };
    const ranges: Array<[number, number]> = [];
    const filter = this.#filter;
    // The last ANCHOR_CHARS characters that are not line breaks, lower-cased, and where the first one is.
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let p1 = 0;
    let p2 = 0;
    let p3 = 0;
    let seen = 0;
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      // Letters and digits, most of any text, go straight on; the rest may be a line break.
      if (code >= 0x61 && code <= 0x7a) {
        // already lower case
      } else if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a)) {
        code = lower(code);
      } else {
        const skip = breakAt(text, i);
        if (skip > 0) {
          i += skip - 1;
          continue;
        }
        code = lower(code);
      }
      const start = p1;
      const c0 = c1;
      c1 = c2;
      c2 = c3;
      c3 = code;
      p1 = p2;
      p2 = p3;
      p3 = i;
      if (++seen < ANCHOR_CHARS || filter[hash(c0, c1, c2, c3)] === 0) continue;
      const candidates = this.#candidates.get(String.fromCharCode(c0, c1, c2, c3));
      if (candidates === undefined) continue;
      let end = -1;
      for (const candidate of candidates) {
        const run = runAt(text, start, candidate);
        if (run === undefined) continue;
        ranges.push(run);
        end = Math.max(end, run[1]);
      }
      // On past a hidden run; otherwise on by one character, so that overlapping anchors are all tried.
      if (end > i + 1) {
        i = end - 1;
        seen = 0;
      }
    }
    if (ranges.length === 0) return { text, hidden: 0 };
    ranges.sort((a, b) => a[0] - b[0]);
    // Overlapping or touching runs (a value and its credential, two headers) become one.
    let out = '';
    let at = 0;
    let open: [number, number] | undefined;
    let hidden = 0;
    for (const range of ranges) {
      if (open !== undefined && range[0] <= open[1]) {
        open[1] = Math.max(open[1], range[1]);
        continue;
      }
      if (open !== undefined) {
        out += text.slice(at, open[0]) + REDACTED;
        at = open[1];
        hidden++;
      }
      open = [range[0], range[1]];
    }
    out += text.slice(at, open![0]) + REDACTED + text.slice(open![1]);
    return { text: out, hidden: hidden + 1 };
  }
}

const FILTER_SIZE = 1 << 16;

function hash(c0: number, c1: number, c2: number, c3: number): number {
  return (((c0 * 31 + c1) * 31 + c2) * 31 + c3) & (FILTER_SIZE - 1);
}

/** Lower case of each UTF-16 code unit that has a single-unit lower case, built on first use. */
let LOWER: Uint16Array | undefined;
function lower(code: number): number {
  if (code < 0x41) return code;
  if (code <= 0x5a) return code + 32;
  if (code < 0xc0) return code;
  if (LOWER === undefined) {
    LOWER = new Uint16Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      const folded = String.fromCharCode(c).toLowerCase();
      LOWER[c] = folded.length === 1 ? folded.charCodeAt(0) : c;
    }
  }
  return LOWER[code]!;
}

/** `text` folded as the matcher compares it: lower-cased one code unit at a time. */
export function fold(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += String.fromCharCode(lower(text.charCodeAt(i)));
  return out;
}

/**
 * The run of `candidate`'s form that the anchor found at `start` of `text` belongs to, as a range of
 * `text`, if it is long enough to hide: extended both ways, character by character, over line breaks.
 */
function runAt(text: string, start: number, candidate: Candidate): [number, number] | undefined {
  const form = candidate.form.text;
  let i = start;
  for (let j = candidate.offset; j < candidate.offset + ANCHOR_CHARS; j++) {
    i = skipForward(text, i, form.charCodeAt(j));
    if (i < 0) return undefined;
    i++;
  }
  let first = candidate.offset;
  let textStart = start;
  for (let k = start - 1; first > 0 && k >= 0;) {
    if (lower(text.charCodeAt(k)) === form.charCodeAt(first - 1)) {
      first--;
      textStart = k;
      k--;
    } else {
      const skipped = breakBefore(text, k);
      if (skipped === 0) break;
      k -= skipped;
    }
  }
  let last = candidate.offset + ANCHOR_CHARS;
  let textEnd = i;
  for (let k = i; last < form.length && k < text.length;) {
    if (lower(text.charCodeAt(k)) === form.charCodeAt(last)) {
      last++;
      k++;
      textEnd = k;
    } else {
      const skipped = breakAt(text, k);
      if (skipped === 0) break;
      k += skipped;
    }
  }
  return last - first >= candidate.form.minRun ? [textStart, textEnd] : undefined;
}

/** The index of `char` at `i` of `text` or after line breaks there, or -1. */
function skipForward(text: string, i: number, char: number): number {
  for (let k = i; k < text.length;) {
    if (lower(text.charCodeAt(k)) === char) return k;
    const skipped = breakAt(text, k);
    if (skipped === 0) return -1;
    k += skipped;
  }
  return -1;
}

/** How many characters of a line break (see BREAK) start at `k`: 0 when none. */
function breakAt(text: string, k: number): number {
  const c = text.charCodeAt(k);
  if (c > 0x20 && c < 0x80) {
    if (c === 0x3d) {
      const next = text.charCodeAt(k + 1);
      return next === 0x0a || (next === 0x0d && text.charCodeAt(k + 2) === 0x0a) ? 1 : 0;
    }
    if (c === 0x5c) {
      const next = text.charCodeAt(k + 1);
      return next === 0x6e || next === 0x72 || next === 0x74 ? 2 : 0;
    }
    return 0;
  }
  return isSpace(c) ? 1 : 0;
}

/** How many characters of a line break end at `k`: 0 when none. */
function breakBefore(text: string, k: number): number {
  const c = text.charCodeAt(k);
  if (isSpace(c)) return 1;
  if (c === 0x3d) return breakAt(text, k);
  if ((c === 0x6e || c === 0x72 || c === 0x74) && text.charCodeAt(k - 1) === 0x5c) return 2;
  return 0;
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
