import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { cancelled, ToolError } from '../errors.js';
import { letInputIn } from '../time-slice.js';
import { VERSION } from '../version.js';
import { describeEndpoint } from './endpoint.js';
import { HeaderSet } from './headers.js';
import { thousands } from '../thousands.js';

/** One GraphQL request over HTTP. */
export interface GraphQLRequest {
  readonly endpoint: URL;
  /** The caller's headers; they replace the defaults of the same name. */
  readonly headers: HeaderSet;
  /** `{query, variables, operationName}` as JSON. */
  readonly body: string;
  /** Total deadline: connect, headers and the whole body. */
  readonly timeoutMs: number;
  /** Largest decoded body accepted. */
  readonly maxBytes: number;
  /** Aborts the request when the client cancels the call. */
  readonly signal?: AbortSignal;
  /** Hides secrets in the body an endpoint sent back, before a message quotes its start. */
  readonly redact?: (text: string) => string;
  /**
   * Whether the request may be sent again when a pooled connection turns out to have been closed by the
   * server before it took the request (false for mutations: a reset could come after the server acted).
   */
  readonly retryable?: boolean;
  /**
   * Why a same-origin redirect to `target` may not be followed, or undefined to follow it; a refusal ends the
   * call with ENDPOINT_NOT_ALLOWED before anything is sent there. Without it every same-origin hop is followed.
   */
  readonly checkHop?: (target: URL) => string | undefined;
}

/** A GraphQL response: an object with `data` (object or null) and/or a non-empty `errors` array. */
export interface GraphQLResponse {
  readonly status: number;
  readonly result: Record<string, unknown>;
}

/**
 * Most levels of objects and arrays a response may nest, the response object included: far beyond any
 * real answer (a document is nested MAX_DEPTH levels at most), and well within what the recursive code
 * after the parse (validation, serialisation) can walk on a default stack.
 */
export const MAX_RESPONSE_DEPTH = 1_000;

const MAX_REDIRECTS = 5;
const BODY_PREVIEW_CHARS = 200;

/** A body this many characters long (milliseconds to encode) is written in a turn of its own. */
const LARGE_BODY = 1_000_000;

const DEFAULT_HEADERS = HeaderSet.of({
  'Content-Type': 'application/json',
  Accept: 'application/graphql-response+json, application/json;q=0.9',
  'User-Agent': `graphql-mcp/${VERSION}`,
  'Accept-Encoding': 'gzip, deflate, br',
});

// One keep-alive pool per scheme; an agent keeps idle connections per origin (host and port).
const httpAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo', noDelay: true });
// TLS is loaded on the first https request: start-up should not pay for it.
let https:
  Promise<{ agent: import('node:https').Agent; request: typeof import('node:https').request }> | undefined;
const loadHttps = () =>
  (https ??= import('node:https').then(({ Agent, request }) => ({
    agent: new Agent({ keepAlive: true, scheduling: 'lifo', noDelay: true }),
    request,
  })));

class Cancelled extends Error {}

/**
 * How a request ends early: its deadline passes, or the client cancels. One phase of the request at a time
 * (the POST, then its body) says how to stop it, so that one reason ends whichever phase is running.
 */
class Stop {
  /** Why the request stopped; undefined while it runs. */
  reason: Error | undefined;
  #phase: ((reason: Error) => void) | undefined;

  stop(reason: Error): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.#phase?.(reason);
  }

  /** `end` stops the phase that starts now, at once if the request has stopped already; returns its end. */
  during(end: (reason: Error) => void): () => void {
    this.#phase = end;
    if (this.reason !== undefined) end(this.reason);
    return () => {
      if (this.#phase === end) this.#phase = undefined;
    };
  }
}

/**
 * POSTs a GraphQL request and classifies what comes back. Resolves with any GraphQL response, whatever
 * its HTTP status; everything else is a ToolError (TIMEOUT, NETWORK_ERROR, HTTP_ERROR, INVALID_RESPONSE,
 * RESPONSE_TOO_LARGE, CANCELLED). Node's http module rather than fetch: on a busy server fetch's web
 * streams and per-request objects cost more than the rest of a tool call together.
 */
export async function postGraphQL(request: GraphQLRequest): Promise<GraphQLResponse> {
  const stop = new Stop();
  const timer = setTimeout(() => stop.stop(deadlineError(request)), request.timeoutMs);
  const cancel = () => stop.stop(new Cancelled());
  if (request.signal?.aborted) cancel();
  request.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const response = await postFollowingRedirects(request, stop);
    const text = await readBody(response, request.maxBytes, stop);
    return classify(response, text, request.redact);
  } catch (error) {
    const reason = stop.reason;
    if (reason instanceof ToolError) throw reason;
    if (reason instanceof Cancelled) throw cancelled();
    if (error instanceof ToolError) throw error;
    throw networkError(request.endpoint, error);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
}

function deadlineError(request: GraphQLRequest): ToolError {
  return new ToolError(
    'TIMEOUT',
    `no complete response from ${describeEndpoint(request.endpoint)} within the ${request.timeoutMs} ms deadline; raise timeout, or ask for less`,
  );
}

// Redirects are followed by hand: only within the endpoint's origin, so that credentials never follow
// a redirect elsewhere, and only where the caller's checkHop lets them go (a path-scoped allow-list), and
// re-POSTing the same body, which is what a GraphQL client means.
async function postFollowingRedirects(request: GraphQLRequest, stop: Stop): Promise<IncomingMessage> {
  // Sent as a string, whose Content-Length node:http works out itself: it writes a head and a string body
  // in one write, a Buffer body in two.
  const body = request.body;
  const headers = Object.fromEntries(DEFAULT_HEADERS.merge(request.headers).entries());
  // Encoding megabytes and writing them to the socket take milliseconds: a turn apart, so that pings and
  // cancellations are not kept waiting.
  if (body.length >= LARGE_BODY) await letInputIn();
  let url = request.endpoint;
  for (let hop = 0; ; hop++) {
    const response = await post(url, headers, body, stop, request.retryable ?? false);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status < 300 || status > 399 || location === undefined) return response;
    response.resume();
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw new ToolError(
        'HTTP_ERROR',
        `HTTP ${status} from ${describeEndpoint(url)} redirects to an invalid URL`,
      );
    }
    if (target.origin !== request.endpoint.origin) {
      throw new ToolError(
        'HTTP_ERROR',
        `HTTP ${status} from ${describeEndpoint(url)} redirects to ${describeEndpoint(target)}, another origin; not followed (call that endpoint directly if it is the right one)`,
      );
    }
    const refused = request.checkHop?.(target);
    if (refused !== undefined) {
      throw new ToolError(
        'ENDPOINT_NOT_ALLOWED',
        `HTTP ${status} from ${describeEndpoint(url)} redirects to ${describeEndpoint(target)}, ${refused}; not followed`,
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new ToolError(
        'HTTP_ERROR',
        `more than ${MAX_REDIRECTS} redirects from ${describeEndpoint(request.endpoint)}; not followed`,
      );
    }
    url = target;
  }
}

/** One POST; resolves when the response headers arrive. */
async function post(
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string,
  stop: Stop,
  retryable: boolean,
): Promise<IncomingMessage> {
  const { request, agent } =
    url.protocol === 'https:' ? await loadHttps() : { request: httpRequest, agent: httpAgent };
  return new Promise((resolve, reject) => {
    if (stop.reason !== undefined) return reject(stop.reason);
    const req = request({ ...urlToHttpOptions(url), method: 'POST', headers, agent });
    // Stopped here until the response arrives (readBody stops the body), rather than given a signal to
    // node:http, which watches the request's whole life for it with a handful of listeners.
    const ended = stop.during((reason) => req.destroy(reason));
    req.once('response', (response) => {
      ended();
      resolve(response);
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      ended();
      // A pooled connection the server closed while idle fails at once; the request never reached it.
      if (retryable && req.reusedSocket && error.code === 'ECONNRESET' && stop.reason === undefined) {
        post(url, headers, body, stop, false).then(resolve, reject);
      } else reject(error);
    });
    req.end(body);
  });
}

// Counts decoded bytes as they stream in, so an endless or huge body is cut off at the cap.
async function readBody(response: IncomingMessage, maxBytes: number, stop: Stop): Promise<string> {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const declared = Number(response.headers['content-length']);
  if (encoding === '' && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const decoded = decode(response, encoding);
  const ended = stop.during((reason) => decoded.destroy(reason));
  try {
    return UTF8.decode(await collect(decoded, maxBytes));
  } catch (error) {
    // A body that claims gzip or br but does not decode was still an answer: a bad one, not a network failure.
    if (causeCode(error)?.match(/^(Z_|ERR_BROTLI|ERR__ERROR)/)) {
      throw new ToolError(
        'INVALID_RESPONSE',
        `HTTP ${response.statusCode} with content encoding ${encoding} whose body does not decode (${causeCode(error)})`,
      );
    }
    throw error;
  } finally {
    ended();
    // Leaving early (too large, aborted, failed) must close the connection rather than return it to the pool.
    if (!response.complete) response.destroy();
    if (decoded !== response) decoded.destroy();
  }
}

// Decodes a body as JSON parsers expect: UTF-8, a leading byte-order mark dropped.
const UTF8 = new TextDecoder();

/**
 * The whole body, or the stream's error: a premature close, an abort (destroyed with the reason) or
 * RESPONSE_TOO_LARGE. Events rather than an async iterator, which costs more than the rest of reading; and
 * done at 'end', where stream.finished would wait for the response's 'close', a few ticks later.
 */
function collect(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    body.on('data', (chunk: Buffer) => {
      if (received > maxBytes) return;
      received += chunk.length;
      if (received > maxBytes) body.destroy(tooLarge(maxBytes));
      else chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, received)));
    body.once('error', reject);
    // Closed without an end or an error: the connection went away mid-body.
    body.once('close', () => {
      if (!body.readableEnded && !body.errored) reject(new PrematureClose());
    });
  });
}

/** A body whose connection closed before its end. */
class PrematureClose extends Error {
  readonly code = 'ERR_STREAM_PREMATURE_CLOSE';
  constructor() {
    super('the connection closed before the end of the body');
  }
}

function decode(response: IncomingMessage, encoding: string): Readable {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function tooLarge(maxBytes: number): ToolError {
  return new ToolError(
    'RESPONSE_TOO_LARGE',
    `the response is larger than ${maxBytes} bytes, the most this server accepts; select fewer fields or fewer items (e.g. a smaller "first:" argument)`,
  );
}

/** What a status the model can act on means (401 and 403 get the credentials' advice from the tools). */
function statusAdvice(status: number, response: IncomingMessage): string {
  if (status === 404)
    return '. Nothing answers at this path: check the endpoint URL (GraphQL is often at /graphql)';
  if (status === 405) {
    const allow = String(response.headers.allow ?? '')
      .replace(/[^A-Za-z, ]/g, '')
      .slice(0, 100);
    return `. The endpoint does not accept POST${allow === '' ? '' : ` (it allows ${allow})`}: check the endpoint URL`;
  }
  return '';
}

function classify(
  response: IncomingMessage,
  text: string,
  redact: (text: string) => string = (same) => same,
): GraphQLResponse {
  const status = response.statusCode ?? 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isGraphQLResponse(parsed)) {
    // Fewer characters than two per level cannot nest past the limit.
    if (text.length > 2 * MAX_RESPONSE_DEPTH && nestsDeeperThan(parsed, MAX_RESPONSE_DEPTH)) {
      throw new ToolError(
        'INVALID_RESPONSE',
        `HTTP ${status} with a GraphQL response nested more than ${thousands(MAX_RESPONSE_DEPTH)} levels deep (objects and arrays), the most this server reads; select less deeply nested fields`,
      );
    }
    return { status, result: parsed };
  }

  const contentType = response.headers['content-type'] ?? 'none';
  // Redacted before it is cut, so that no part of a secret is left at the cut.
  const preview = redact(text.slice(0, 64 * 1024))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, BODY_PREVIEW_CHARS);
  const body = preview === '' ? 'an empty body' : `a body starting ${JSON.stringify(preview)}`;
  const what = parsed === undefined ? 'not JSON' : 'JSON but not a GraphQL response (no "data" or "errors")';
  if (status < 200 || status > 299) {
    const line = `${status} ${response.statusMessage ?? ''}`.trim();
    throw new ToolError(
      'HTTP_ERROR',
      `HTTP ${line} with content type ${contentType} and ${body}${statusAdvice(status, response)}`,
      { status },
    );
  }
  throw new ToolError(
    'INVALID_RESPONSE',
    `HTTP ${status} with content type ${contentType} and ${body}: ${what}`,
  );
}

/**
 * Whether a parsed JSON value holds objects and arrays more than `levels` deep (the value itself is the
 * first level). JSON.parse does not recurse, but what walks its value afterwards does (the SDK's output
 * validation, serialisation): a value thousands of levels deep would end the call with a bare stack
 * overflow. Walked after the parse rather than scanning the text before it, which costs several times more.
 * Recursion stops at `levels`.
 */
function nestsDeeperThan(value: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null && nestsDeeperThan(item, levels - 1)) return true;
    }
  } else {
    for (const key in value) {
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null && nestsDeeperThan(item, levels - 1)) return true;
    }
  }
  return false;
}

function isGraphQLResponse(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const { data, errors, extensions } = value;
  // Some servers write every member out, as null when empty; the output schema allows the same.
  const dataOk = data === undefined || data === null || isObject(data);
  const errorsOk = errors === undefined || errors === null || Array.isArray(errors);
  const extensionsOk = extensions === undefined || extensions === null || isObject(extensions);
  const hasContent = data !== undefined || (Array.isArray(errors) && errors.length > 0);
  return dataOk && errorsOk && extensionsOk && hasContent;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNABORTED: 'connection aborted',
};

/** The first error code in an error's cause chain. */
function causeCode(error: unknown): string | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function networkError(endpoint: URL, error: unknown): ToolError {
  const code = causeCode(error);
  let innermost = 'no response';
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause !== error) innermost = cause.message.slice(0, 100);
  }
  const known = code === undefined ? undefined : NETWORK_CODES[code];
  const detail = code === undefined ? innermost : known ? `${code}: ${known}` : code;
  return new ToolError('NETWORK_ERROR', `request to ${describeEndpoint(endpoint)} failed (${detail})`, {
    cause: error,
  });
}
