import type { HeaderSet } from '../http/headers.js';
import { fold, MIN_SECRET_CHARS, type Form } from './matcher.js';

// What a secret looks like, and the forms in which an endpoint may echo it: the header values sent on a call
// and the query-string values of its URLs, whole and in parts (a credential without its scheme, a Basic
// password), as sent and percent-, base64- or hex-encoded.

const SPACE = /\s+/g;

/** The secrets of a call: its header values, and the query-string values of its URLs. */
export function secretTexts(headers: readonly HeaderSet[], urls: readonly URL[]): string[] {
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
export function formsOf(secret: string): Form[] {
  const squeezed = secret.replace(SPACE, '');
  if (squeezed.length < MIN_SECRET_CHARS) return [];
  const partial = distinctive(squeezed);
  const forms: Form[] = [];
  // A run revealing MIN_SECRET_CHARS characters of the secret is that many characters times the expansion.
  const add = (text: string, expansion: number) => {
    const folded = fold(text.replace(SPACE, ''));
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
