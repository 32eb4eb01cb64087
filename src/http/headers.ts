import { ordinal } from '../common/text.js';

// Header names are compared case-insensitively; values are secrets and appear in no message.

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What fetch can put on the wire: no line breaks or other control characters, nothing above Latin-1.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// fetch refuses these or silently overrides them; refusing them ourselves says so.
// Servers refuse header blocks much beyond this (Node's default limit is 16 KiB for all of them).
const MAX_VALUE_CHARS = 16_384;
const MANAGED = new Set(['host', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/** A header value as given in JSON: strings, and numbers or booleans turned into strings. */
function parseHeaderValue(value: unknown): string | { readonly invalid: string } {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return { invalid: `must be a string, number or boolean, not ${kind}` };
}

/** Whether `name` may be a header name; one that may not is never quoted, since it may be a value. */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** What is wrong with a header: names it (or its position), never its value. */
export class HeaderError extends Error {
  override readonly name = 'HeaderError';
}

/** An ordered set of headers, one per case-insensitive name. */
export class HeaderSet {
  readonly #entries = new Map<string, { readonly name: string; readonly value: string }>();

  /**
   * The headers of a JSON object of names to values (strings; numbers and booleans turned into strings). A bad
   * name is described by its position ("the 2nd header name"), never quoted: it may be a value put there.
   */
  static of(object: Readonly<Record<string, unknown>>): HeaderSet {
    const headers = new HeaderSet();
    for (const [index, [name, value]] of Object.entries(object).entries()) {
      headers.set(name, parseHeaderValue(value), `the ${ordinal(index + 1)} header name`);
    }
    return headers;
  }

  /**
   * Adds or replaces a header, or throws a HeaderError naming the header but not its value. An invalid name is
   * described by `position` ("the 2nd header name"), never quoted: it may be a value pasted in the wrong place.
   */
  set(name: string, value: string | { readonly invalid: string }, position = 'a header name'): this {
    if (!isHeaderName(name)) {
      throw new HeaderError(
        `${position} is not a valid HTTP header name such as X-Api-Key (it is not shown: it may be a value)`,
      );
    }
    if (MANAGED.has(name.toLowerCase()))
      throw new HeaderError(`header ${name} cannot be set: the HTTP client manages it`);
    if (typeof value !== 'string') throw new HeaderError(`header ${name} ${value.invalid}`);
    if (value.length > MAX_VALUE_CHARS) {
      throw new HeaderError(
        `header ${name} has a value of ${value.length} characters, more than the ${MAX_VALUE_CHARS} an HTTP server accepts`,
      );
    }
    if (!FIELD_VALUE.test(value)) {
      throw new HeaderError(
        `header ${name} has a value with a line break, a control character or a character above U+00FF, which HTTP headers cannot carry`,
      );
    }
    this.#entries.set(name.toLowerCase(), { name, value });
    return this;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(name: string): boolean {
    return this.#entries.has(name.toLowerCase());
  }

  /** Header names as given, for messages. */
  names(): string[] {
    return [...this.#entries.values()].map((entry) => entry.name);
  }

  /** The values, for redacting them from any text that leaves the process. */
  values(): string[] {
    return [...this.#entries.values()].map((entry) => entry.value);
  }

  entries(): Array<[string, string]> {
    return [...this.#entries.values()].map(({ name, value }) => [name, value]);
  }

  /** A new set: this one's headers, then `other`'s replacing any of the same name. */
  merge(other: HeaderSet): HeaderSet {
    // Sets are not changed once built, so merging nothing may give this very set (and what is kept per set).
    if (other.#entries.size === 0) return this;
    const merged = new HeaderSet();
    for (const [key, entry] of this.#entries) merged.#entries.set(key, entry);
    for (const [key, entry] of other.#entries) merged.#entries.set(key, entry);
    return merged;
  }
}
