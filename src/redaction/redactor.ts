import type { HeaderSet } from '../http/headers.js';
import { mapStrings } from './json-walk.js';
import { Matcher, type Form } from './matcher.js';
import { formsOf, secretTexts } from './secrets.js';

// Hides the credentials sent on a call wherever an endpoint's answer may echo them: in error pages, redirect
// targets, GraphQL responses and schema text (secrets.ts: what to look for; matcher.ts: how it is found).

/** Finds and hides the secrets of one call. Built once per set of secrets; `text` and `json` are linear. */
export class Redactor {
  readonly #matcher: Matcher;

  constructor(secrets: Iterable<string>) {
    const forms = new Map<string, Form>();
    for (const secret of secrets) {
      for (const form of formsOf(secret)) {
        const known = forms.get(form.text);
        if (known === undefined || known.minRun > form.minRun) forms.set(form.text, form);
      }
    }
    this.#matcher = new Matcher(forms.values());
  }

  /**
   * A redactor for the header values of `headers`, the query-string values of `urls` and `values` themselves.
   * Building one costs about as much as a small call: those built for an array of headers are kept as long as
   * the array is (the operator's, as long as the configuration; a forwarded credential's, as its request), the
   * most recent few per array (each user's token of an API's `auth` is a value of its own).
   */
  static of(
    headers: readonly HeaderSet[],
    urls: readonly URL[] = [],
    values: readonly string[] = [],
  ): Redactor {
    const key = [...urls.map((url) => url.search), ...values].join('\n');
    let kept = built.get(headers);
    if (kept === undefined) built.set(headers, (kept = new Map()));
    let redactor = kept.get(key);
    if (redactor !== undefined) {
      // Most recently used last: the first is the one to forget.
      kept.delete(key);
    } else {
      redactor = new Redactor([...secretTexts(headers, urls), ...values]);
      if (kept.size >= KEPT_PER_HEADERS) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, redactor);
    return redactor;
  }

  /** Whether there is anything to hide at all. */
  get empty(): boolean {
    return this.#matcher.empty;
  }

  /** `text` with every secret hidden. */
  text(text: string): string {
    return this.#matcher.redact(text).text;
  }

  /**
   * A parsed JSON value with every secret hidden in its strings and object keys, and how many were hidden.
   * Returns the very value given when nothing was hidden; only what changed is copied.
   */
  json<T>(value: T): { value: T; hidden: number } {
    if (this.empty) return { value, hidden: 0 };
    let hidden = 0;
    const matcher = this.#matcher;
    const walked = mapStrings(value, (text) => {
      if (text.length < matcher.shortest) return text;
      const redacted = matcher.redact(text);
      hidden += redacted.hidden;
      return redacted.text;
    });
    return { value: walked as T, hidden };
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

const built = new WeakMap<readonly HeaderSet[], Map<string, Redactor>>();
/** Redactors kept per array of headers. */
const KEPT_PER_HEADERS = 64;

/**
 * The operator's secrets: every API's configured headers, its configured URLs' query-string values, the parts
 * of them the environment filled in, and the client secret of its `auth`. Hidden in every answer, whichever API
 * it comes from.
 */
export interface Secrets {
  readonly headers: readonly HeaderSet[];
  readonly urls: readonly URL[];
  readonly values: readonly string[];
}

/** What an API's configuration holds that is secret (config/types.ts's ApiConfig is one). */
interface SecretHolder {
  readonly headers: HeaderSet;
  readonly endpoint: URL;
  readonly allowedEndpoints: readonly URL[] | undefined;
  readonly secretParts: readonly string[];
  /** The API's own client secret at its identity provider, where it has an `auth`. */
  readonly auth: { readonly clientSecret: string } | undefined;
}

/** The secrets of these APIs, made once per list of APIs. */
export function secretsOf(apis: readonly { readonly config: SecretHolder }[]): Secrets {
  let secrets = ofApis.get(apis);
  if (secrets === undefined) {
    const configs = apis.map((api) => api.config);
    secrets = {
      headers: configs.map((api) => api.headers),
      urls: configs.flatMap((api) => [api.endpoint, ...(api.allowedEndpoints ?? [])]),
      values: configs.flatMap((api) => [
        ...api.secretParts,
        ...(api.auth === undefined ? [] : [api.auth.clientSecret]),
      ]),
    };
    ofApis.set(apis, secrets);
  }
  return secrets;
}
const ofApis = new WeakMap<readonly { readonly config: SecretHolder }[], Secrets>();

/** The redactor of the operator's secrets alone. */
export function operatorRedactor(secrets: Secrets): Redactor {
  return Redactor.of(secrets.headers, secrets.urls, secrets.values);
}
