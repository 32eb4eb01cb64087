import type { OAuthClientAuth } from '../config/types.js';
import { isObject } from '../common/is-object.js';
import { describeEndpoint } from '../http/endpoint.js';
import type { Obtained } from './token-cache.js';

// One request to an OAuth authorization server (RFC 6749 §3.2 and §5): a form POSTed with the client's
// credentials (HTTP Basic or in the form), within the auth's own deadline, never following a redirect, the answer
// read up to a bound. What comes back is a token and its lifetime, or a ProviderFailure saying what happened in
// words that hold no credential: the provider's own description is the caller's to redact (credentials.ts).

/** The largest answer read from an authorization server: tokens and metadata are a few KiB. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** What an OAuth error code may hold (RFC 6749 §5.2). */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/;
/** The codes of a connection closed under a request (undici's, and the system's). */
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
/** What a token sent as `Bearer <token>` may hold. */
const TOKEN = /^[\x21-\x7e]+$/;

/** Why no token was obtained. */
export type ProviderFailure =
  /** The server answered with an OAuth error (RFC 6749 §5.2). */
  | { readonly kind: 'refused'; readonly error: string; readonly description: string | undefined }
  /** No answer: refused connection, DNS, TLS, reset. */
  | { readonly kind: 'unreachable'; readonly code: string }
  /** No answer within the deadline. */
  | { readonly kind: 'timeout' }
  /** An answer that is not what OAuth says: what is wrong with it. */
  | { readonly kind: 'invalid'; readonly problem: string };

/** A ProviderFailure where it happened: the URL, named by origin and path. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly failure: ProviderFailure,
    /** `https://idp.example.com/oauth2/token` (no query string). */
    readonly at: string,
  ) {
    super(`${at} ${inWords(failure)}`);
  }
}

function inWords(failure: ProviderFailure): string {
  switch (failure.kind) {
    case 'refused':
      return `refused: ${failure.error}`;
    case 'unreachable':
      return `could not be reached (${failure.code})`;
    case 'timeout':
      return 'did not answer in time';
    case 'invalid':
      return `gave no usable answer: ${failure.problem}`;
  }
}

/** Asks the token endpoint for a token: the grant's parameters, the client's credentials as `auth` says. */
export async function requestToken(
  endpoint: URL,
  auth: OAuthClientAuth,
  grant: Readonly<Record<string, string | undefined>>,
): Promise<Obtained> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(grant)) if (value !== undefined) form.set(name, value);
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (auth.clientAuth === 'client_secret_post') {
    form.set('client_id', auth.clientId);
    form.set('client_secret', auth.clientSecret);
  } else {
    // RFC 6749 §2.3.1: each form-encoded, then joined by ":" and base64-encoded.
    const basic = `${formEncoded(auth.clientId)}:${formEncoded(auth.clientSecret)}`;
    headers.Authorization = `Basic ${Buffer.from(basic, 'utf8').toString('base64')}`;
  }
  const { status, body } = await exchange(endpoint, auth.timeout, {
    method: 'POST',
    headers,
    body: form.toString(),
  });
  const at = describeEndpoint(endpoint);
  if (status !== 200) throw new ProviderError(refusal(status, body), at);
  return tokenOf(body, at);
}

/** The JSON object at `url` (an authorization server's metadata), or a ProviderError. */
export async function fetchJson(url: URL, timeoutMs: number): Promise<Record<string, unknown>> {
  const { status, body } = await exchange(url, timeoutMs, {
    method: 'GET',
    headers: { Accept: 'application/json' },
  });
  const at = describeEndpoint(url);
  if (status !== 200) throw new ProviderError({ kind: 'invalid', problem: `it answered HTTP ${status}` }, at);
  if (!isObject(body))
    throw new ProviderError({ kind: 'invalid', problem: 'its answer is not a JSON object' }, at);
  return body;
}

/** One HTTP exchange within `timeoutMs`: the status and the body parsed as JSON (undefined where it is not). */
async function exchange(
  url: URL,
  timeoutMs: number,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: unknown }> {
  const at = describeEndpoint(url);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const send = () => fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
  try {
    // A kept-alive connection the server closed as the request went out: the request never reached it, and
    // asking for a token again has no effect a first answer would not have had.
    const response = await send().catch((error: unknown) => {
      if (controller.signal.aborted || !CLOSED.has(systemCode(error))) throw error;
      return send();
    });
    const text = await readBounded(response);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    if (error instanceof ProviderError) throw new ProviderError(error.failure, at);
    if (controller.signal.aborted) throw new ProviderError({ kind: 'timeout' }, at);
    throw new ProviderError({ kind: 'unreachable', code: systemCode(error) }, at);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, up to MAX_ANSWER_BYTES. */
async function readBounded(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    if (bytes > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new ProviderError(
        { kind: 'invalid', problem: `its answer is over ${MAX_ANSWER_BYTES} bytes` },
        '',
      );
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What a non-200 answer says: an OAuth error, or the status alone. */
function refusal(status: number, body: unknown): ProviderFailure {
  if (isObject(body) && typeof body.error === 'string') {
    const error = ERROR_CODE.test(body.error) ? body.error : 'an error it did not name';
    const description = typeof body.error_description === 'string' ? body.error_description : undefined;
    return { kind: 'refused', error, description };
  }
  const redirect = status >= 300 && status < 400 ? ' (a redirect, which is not followed)' : '';
  return { kind: 'invalid', problem: `it answered HTTP ${status}${redirect} without an OAuth error` };
}

/** The token of a 200 answer (RFC 6749 §5.1), or what is wrong with the answer. */
function tokenOf(body: unknown, at: string): Obtained {
  const invalid = (problem: string) => new ProviderError({ kind: 'invalid', problem }, at);
  if (!isObject(body)) throw invalid('its answer is not a JSON object');
  const token = body.access_token;
  if (typeof token !== 'string' || token === '') throw invalid('its answer holds no access_token');
  if (!TOKEN.test(token)) throw invalid('its access_token holds characters a Bearer token cannot have');
  const type = body.token_type;
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
    throw invalid('its token is not a Bearer token (token_type), which this server cannot send');
  }
  return { token, lifetime: lifetimeOf(body.expires_in, token) };
}

/** expires_in in ms (a number, or a string of digits as some servers send); else the JWT's own exp. */
function lifetimeOf(expiresIn: unknown, token: string): number | undefined {
  const seconds =
    typeof expiresIn === 'number'
      ? expiresIn
      : typeof expiresIn === 'string' && /^\d+$/.test(expiresIn)
        ? Number(expiresIn)
        : undefined;
  if (seconds !== undefined && Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  const exp = jwtExpiry(token);
  return exp === undefined ? undefined : exp * 1000 - Date.now();
}

/** The `exp` of a token that is a JWT (read, not verified: the API verifies it), else undefined. */
function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || token.split('.').length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return isObject(claims) && typeof claims.exp === 'number' ? claims.exp : undefined;
  } catch {
    return undefined;
  }
}

function formEncoded(text: string): string {
  return new URLSearchParams({ v: text }).toString().slice(2);
}

/** The system code of a failed fetch (its cause's: ECONNREFUSED, ENOTFOUND, …), or what kind of failure it was. */
function systemCode(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(cause.code)) return cause.code;
  return 'no answer';
}
