import type { HeaderSet } from './http/headers.js';

// Hides the credentials sent on a call wherever an endpoint's answer may echo them: in error pages, redirect
// targets and GraphQL responses. An endpoint seldom echoes a value verbatim: it lower-cases it (a host name),
// wraps it across lines (an HTML page), cuts it short, percent-, base64- or hex-encodes it, or decodes a Basic
// credential. So a secret is matched as a run of its characters, in any case, with line breaks allowed
// between any two of them, in each of those forms.

/** What replaces a hidden value. */
export const REDACTED = '[redacted]';

/** Values shorter than this cannot be told from ordinary text, and would not be secrets. */
export const MIN_SECRET_CHARS = 8;

const SPACE = /\s+/g;

/** One form of a secret, lower-cased and without whitespace, and how much of it may stay visible. */
interface Form {
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

/** Finds and hides the secrets of one call. Built once per set of secrets; `text` and `json` are linear. */
export class Redactor {
  /** Anchors by their text: the forms (and where in them) that a run through such an anchor may be. */
  readonly #candidates = new Map<string, Candidate[]>();
  /**
   * A hash filter of the anchors: one look-up per character of a text tells that no anchor ends there,
   * which is all a text without secrets (the common case) costs.
   */
  readonly #filter = new Uint8Array(FILTER_SIZE);
  readonly #shortest: number;

  constructor(secrets: Iterable<string>) {
    const forms = new Map<string, Form>();
    for (const secret of secrets) {
      for (const form of formsOf(secret)) {
        const known = forms.get(form.text);
        if (known === undefined || known.minRun > form.minRun) forms.set(form.text, form);
      }
    }
    let shortest = Infinity;
    for (const form of forms.values()) {
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
    this.#shortest = shortest;
  }

  /**
   * A redactor for the header values sent on a call and the query-string values of its URLs. Building one
   * costs about as much as a small call: a call that adds no header of its own reuses the one built for
   * its startup headers (kept only as long as they are, so a forwarded credential never outlives its request).
   */
  static of(headers: readonly HeaderSet[], urls: readonly URL[] = []): Redactor {
    const [first, ...rest] = headers;
    if (first === undefined || rest.some((set) => set.size > 0))
      return new Redactor(secretsOf(headers, urls));
    const key = urls.map((url) => url.search).join('\n');
    const cached = built.get(first);
    if (cached?.key === key) return cached.redactor;
    const redactor = new Redactor(secretsOf(headers, urls));
    built.set(first, { key, redactor });
    return redactor;
  }

  /** Whether there is anything to hide at all. */
  get empty(): boolean {
    return this.#candidates.size === 0;
  }

  /** `text` with every secret hidden. */
  text(text: string): string {
    return this.#redact(text).text;
  }

  /**
   * A parsed JSON value with every secret hidden in its strings and object keys, and how many were hidden.
   * Returns the very value given when nothing was hidden; only what changed is copied.
   */
  json<T>(value: T): { value: T; hidden: number } {
    if (this.empty) return { value, hidden: 0 };
    const counter = { hidden: 0 };
    return { value: this.#walk(value, counter) as T, hidden: counter.hidden };
  }

  // Iterative: a value nested deeper than the call stack allows is walked all the same.
  #walk(root: unknown, counter: { hidden: number }): unknown {
    if (typeof root === 'string') return this.#string(root, counter);
    if (typeof root !== 'object' || root === null) return root;
    const stack: Frame[] = [frameOf(root)];
    let walked: unknown;
    for (;;) {
      const frame = stack[stack.length - 1]!;
      const { node, keys } = frame;
      if (frame.at === (keys === undefined ? (node as unknown[]).length : keys.length)) {
        stack.pop();
        walked = copyOf(frame);
        if (stack.length === 0) return walked;
        settle(stack[stack.length - 1]!, walked);
        continue;
      }
      let child: unknown;
      if (keys === undefined) child = (node as unknown[])[frame.at];
      else {
        const key = keys[frame.at]!;
        frame.key = this.#string(key, counter);
        child = (node as Record<string, unknown>)[key];
      }
      if (typeof child === 'object' && child !== null) {
        stack.push(frameOf(child));
        continue;
      }
      settle(frame, typeof child === 'string' ? this.#string(child, counter) : child);
    }
  }

  #string(text: string, counter: { hidden: number }): string {
    if (text.length < this.#shortest) return text;
    const { text: redacted, hidden } = this.#redact(text);
    counter.hidden += hidden;
    return redacted;
  }

  #redact(text: string): { text: string; hidden: number } {
    if (text.length < this.#shortest) return { text, hidden: 0 };
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

/** Says that an answer was changed, and why, without a word of what was hidden. */
export function redactionNote(hidden: number, what = 'response'): string {
  const values = hidden === 1 ? '1 value' : `${hidden} values`;
  return (
    `Note: ${values} in this ${what} matched credentials sent with this request (a header value or a URL ` +
    `query-string value, as sent or encoded) and ${hidden === 1 ? 'was' : 'were'} replaced by [redacted].`
  );
}

/** An array or object being walked, and its copy once something in it has changed. */
interface Frame {
  readonly node: object;
  /** The object's own keys; undefined for an array. */
  readonly keys: string[] | undefined;
  /** The index of the item (or key) being walked. */
  at: number;
  /** That item's key, redacted. */
  key: string;
  /** The items walked so far, from the first change on: an array's, or an object's entries. */
  copy: unknown[] | Array<[string, unknown]> | undefined;
}

function frameOf(node: object): Frame {
  return { node, keys: Array.isArray(node) ? undefined : Object.keys(node), at: 0, key: '', copy: undefined };
}

/** Records the walked value of the frame's current item, and moves on to the next. */
function settle(frame: Frame, walked: unknown): void {
  const { node, keys, at } = frame;
  if (keys === undefined) {
    if (walked !== (node as unknown[])[at])
      ((frame.copy as unknown[] | undefined) ??= (node as unknown[]).slice())[at] = walked;
  } else {
    const key = keys[at]!;
    let entries = frame.copy as Array<[string, unknown]> | undefined;
    if (entries === undefined && (frame.key !== key || walked !== (node as Record<string, unknown>)[key])) {
      entries = frame.copy = keys
        .slice(0, at)
        .map((kept): [string, unknown] => [kept, (node as Record<string, unknown>)[kept]]);
    }
    entries?.push([frame.key, walked]);
  }
  frame.at++;
}

/** The walked value of a finished frame: the very node when nothing in it changed. */
function copyOf(frame: Frame): unknown {
  if (frame.copy === undefined) return frame.node;
  if (frame.keys === undefined) return frame.copy;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of frame.copy as Array<[string, unknown]>) {
    // As JSON.parse made it: a "__proto__" key is an ordinary property, not the prototype.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else copy[key] = item;
  }
  return copy;
}

const built = new WeakMap<HeaderSet, { key: string; redactor: Redactor }>();

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

/** `text` lower-cased as the matcher compares it: one code unit at a time. */
function lowerText(text: string): string {
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

/** The secrets of a call: its header values, and the query-string values of its URLs. */
export function secretsOf(headers: readonly HeaderSet[], urls: readonly URL[]): string[] {
  const secrets: string[] = [];
  for (const set of headers) {
    for (const value of set.values()) secrets.push(...headerValueSecrets(value));
  }
  for (const url of urls) secrets.push(...pairSecrets(url.search.slice(1)));
  return secrets;
}

// A header value as a server may quote it: whole; its credential without the scheme ("Bearer sk-…" quoted as
// "sk-…"), or any other part of a list ("a=1; b=2"); and a Basic credential decoded, with its password alone.
function headerValueSecrets(value: string): string[] {
  const secrets = [value, ...value.split(/[\s,;]+/)];
  const basic = /^basic\s+([A-Za-z0-9+/_-]+=*)\s*$/i.exec(value);
  if (basic !== null) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) secrets.push(decoded, decoded.slice(colon + 1));
  }
  return secrets;
}

/** The secrets among the values of "name=value&…" (a query string, or a fragment written like one). */
function pairSecrets(pairs: string): string[] {
  return pairs === '' ? [] : pairs.split('&').flatMap(queryValueSecrets);
}

// A query value as it may be echoed: raw (percent-encoded) and decoded. A value that is a URL or a path
// (next=https://…, to=/admin) is an address, which messages name: it is no secret itself, or its parts would
// hide the endpoints and redirect targets named; the parts of it that may be secrets are.
function queryValueSecrets(pair: string): string[] {
  const raw = pair.slice(pair.indexOf('=') + 1);
  const decoded = percentDecoded(raw.replace(/\+/g, ' '));
  if (decoded === undefined) return [raw];
  const address = addressOf(decoded);
  return address === undefined ? [raw, decoded] : addressSecrets(address);
}

/** A value that starts like an absolute URL ("scheme://") or a path ("/"), parsed; else undefined. */
function addressOf(value: string): URL | undefined {
  if (!/^(?:[a-z][a-z\d+.-]*:)?\//i.test(value)) return undefined;
  try {
    return new URL(value, 'http://path.invalid');
  } catch {
    return undefined;
  }
}

// Its user-info, its path segments that look like tokens (a webhook's /services/T0…/B0…/x9…) and its query
// and fragment values; not its host, or the words and numbers of its path.
function addressSecrets(url: URL): string[] {
  const secrets = [url.username, url.password].map((part) => percentDecoded(part) ?? part);
  for (const segment of url.pathname.split('/')) {
    const value = percentDecoded(segment) ?? segment;
    if (distinctive(value)) secrets.push(segment, value);
  }
  return [...secrets, ...pairSecrets(url.search.slice(1)), ...pairSecrets(url.hash.slice(1))];
}

function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The forms a secret is matched in: itself, percent-encoded, base64 (standard and URL-safe, at each of the
 * three alignments it can have inside a longer encoded text) and hex. None for a value too short to tell.
 */
function formsOf(secret: string): Form[] {
  const squeezed = secret.replace(SPACE, '');
  if (squeezed.length < MIN_SECRET_CHARS) return [];
  const partial = distinctive(squeezed);
  const forms: Form[] = [];
  // A run revealing MIN_SECRET_CHARS characters of the secret is that many characters times the expansion.
  const add = (text: string, expansion: number) => {
    const folded = lowerText(text.replace(SPACE, ''));
    if (folded.length < MIN_SECRET_CHARS) return;
    const half = Math.ceil(folded.length / 2);
    const minRun = partial
      ? Math.min(folded.length, Math.max(Math.ceil(MIN_SECRET_CHARS * expansion), half))
      : folded.length;
    forms.push({ text: folded, minRun });
  };
  add(secret, 1);
  add(encodeURIComponent(secret), 1);
  add(encodeURIComponent(secret).replace(/%20/g, '+'), 1);
  const bytes = Buffer.from(secret, 'utf8');
  for (let skip = 0; skip < 3 && skip < bytes.length; skip++) {
    const base64 = bytes.subarray(skip).toString('base64').replace(/=+$/, '');
    // Its last character also holds bits of what follows it in a longer encoded text: left out.
    const inner = (bytes.length - skip) % 3 === 0 ? base64 : base64.slice(0, -1);
    add(inner, 4 / 3);
    add(inner.replace(/\+/g, '-').replace(/\//g, '_'), 4 / 3);
  }
  add(bytes.toString('hex'), 2);
  return forms;
}

/**
 * Whether any long run of a value gives it away: a value mixing letters and digits, or letter cases, as
 * tokens do. Others ("application/json", a word) are hidden only whole, so that ordinary text that shares
 * a part of them stays readable.
 */
function distinctive(value: string): boolean {
  const letter = /\p{L}/u.test(value);
  return (letter && /\d/.test(value)) || (/\p{Lu}/u.test(value) && /\p{Ll}/u.test(value));
}
