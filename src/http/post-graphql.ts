import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { cancelled, ToolError } from '../common/errors.js';
import { letInputIn } from '../common/time-slice.js';
import * as diagnostics from '../common/diagnostics.js';
import { VERSION } from '../common/version.js';
import { describeEndpoint } from './endpoint.js';
import { noAllowAdvice } from './method-advice.js';
import { HeaderSet } from './headers.js';
import {
  apolloHash,
  persistedAdvice,
  persistedAnswer,
  registrable,
  sentWhole,
  type PersistedDocument,
  type PersistedProtocol,
} from './persisted.js';
import { thousands } from '../common/text.js';
import { isObject } from '../common/is-object.js';

/** One GraphQL request over HTTP. */
export interface GraphQLRequest {
  readonly endpoint: URL;
  /** The caller's headers; they replace the defaults of the same name. */
  readonly headers: HeaderSet;
  /** What to run. */
  readonly operation: GraphQLOperation;
  /** How the API takes requests; without it, whole documents by POST (GET where a 405 asks for it). */
  readonly protocol?: ApiProtocol;
  /** Total deadline: connect, headers and the whole body, across every request of the exchange. */
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

/** What a request runs: a document and its operation, or the trusted document it is. */
export interface GraphQLOperation {
  /** The document, as sent whole (the checked document as graphql-js prints it). */
  readonly query: string;
  /** The operation to run, where the document holds several. */
  readonly operationName?: string | undefined;
  /** The variables as JSON, serialised by the caller (which knows when that is long work), or undefined. */
  readonly variables?: string | undefined;
  /**
   * `query` for a query whose document holds no mutation, the only kind that may go by GET (and be sent again
   * by GET after a 405); `mutation` for anything else.
   */
  readonly kind: 'query' | 'mutation';
  /** The trusted document it is (a manifest's), sent by id where the API takes ids. */
  readonly persisted?: PersistedDocument | undefined;
}

/** How one API takes requests: each member has a default that every GraphQL server accepts. */
export interface ApiProtocol {
  /**
   * How queries travel (mutations always by POST): `auto`, by POST, and by GET to an endpoint that has answered a
   * POST with 405 and an Allow header listing GET (remembered for the process); `get`, by GET (by POST when the
   * URL would be longer than MAX_GET_URL); `post`, never by GET.
   * @default 'auto'
   */
  readonly method?: 'auto' | 'get' | 'post';
  /** How a trusted document is sent by id (see PersistedProtocol); undefined sends every document whole. */
  readonly persisted?: PersistedProtocol | undefined;
  /** The API runs only trusted documents: one without an id is refused before anything is sent. */
  readonly trustedOnly?: boolean;
}

/** A GraphQL response: an object with `data` (object or null) and/or a non-empty `errors` array. */
export interface GraphQLResponse {
  readonly status: number;
  readonly result: Record<string, unknown>;
  /**
   * What the response's errors mean, when they are about persisted documents (the API runs only trusted ones,
   * does not know an id, …), and what to do; for a note beside the result.
   */
  readonly advice?: string;
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

/**
 * The longest URL sent by GET, in characters: 8 KiB, what common servers and proxies take in a request line
 * (nginx's and Apache's default buffers); a longer request goes by POST where the endpoint takes POST.
 */
export const MAX_GET_URL = 8 * 1024;

/**
 * Endpoints (by href) that answered a POST with 405 and an Allow header listing GET, with that header: their
 * queries go by GET from then on. Bounded, since a model chooses endpoints: the oldest is forgotten first.
 */
const getOnly = new Map<string, string>();
const MAX_GET_ONLY = 256;

const DEFAULT_HEADERS = HeaderSet.of({
  'Content-Type': 'application/json',
  Accept: 'application/graphql-response+json, application/json;q=0.9',
  'User-Agent': `graphql-mcp/${VERSION}`,
  'Accept-Encoding': 'gzip, deflate, br',
});

// One keep-alive pool per scheme; an agent keeps idle connections per origin (host and port).
const PLAIN = {
  request: httpRequest,
  agent: new HttpAgent({ keepAlive: true, scheduling: 'lifo', noDelay: true }),
};
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
 * Sends a GraphQL request (by POST, or GET and by id as the API takes them) and classifies what comes back.
 * Resolves with any GraphQL response, whatever its HTTP status; everything else is a ToolError (TIMEOUT,
 * NETWORK_ERROR, HTTP_ERROR, INVALID_RESPONSE, RESPONSE_TOO_LARGE, CANCELLED; DOCUMENT_NOT_TRUSTED for a document
 * an API of trusted documents only would refuse, INVALID_INPUT for a query too long for a GET-only endpoint).
 * Node's http module rather than fetch: on a busy server fetch's web streams and per-request objects cost more
 * than the rest of a tool call together.
 */
export async function postGraphQL(request: GraphQLRequest): Promise<GraphQLResponse> {
  const refused = wholeDocumentRefused(request.endpoint, request.protocol, request.operation);
  if (refused !== undefined) throw refused;
  const stop = new Stop();
  const timer = setTimeout(() => stop.stop(deadlineError(request)), request.timeoutMs);
  const cancel = () => stop.stop(new Cancelled());
  if (request.signal?.aborted) cancel();
  request.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const { operation, protocol } = request;
    const persisted = protocol?.persisted === undefined ? undefined : operation.persisted;
    if (persisted === undefined) return advised(await send(request, { query: operation.query }, stop), false);
    return await byId(request, persisted, stop);
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

/**
 * DOCUMENT_NOT_TRUSTED when the API runs only trusted documents and this one would be sent whole, else undefined:
 * for the tools to ask before anything else happens (a mutation's question included), and checked again here.
 */
export function wholeDocumentRefused(
  endpoint: URL,
  protocol: ApiProtocol | undefined,
  operation: Pick<GraphQLOperation, 'persisted'>,
): ToolError | undefined {
  if (protocol?.trustedOnly !== true) return undefined;
  if (protocol.persisted !== undefined && operation.persisted !== undefined) return undefined;
  return new ToolError(
    'DOCUMENT_NOT_TRUSTED',
    `${describeEndpoint(endpoint)} runs only trusted documents (persisted operations), and this document is not one of them, so it was not sent: run one of the operation tools this server offers for the API instead`,
  );
}

/** What one request carries besides the operation's variables and name: the document, or an id, and extensions. */
interface Payload {
  readonly query?: string;
  /** The member holding a trusted document's id, and the id. */
  readonly idMember?: 'documentId' | 'doc_id';
  readonly id?: string;
  /** As JSON. */
  readonly extensions?: string;
}

/** The requests of a trusted document sent by id (with Apollo's registration where the API asks for it). */
async function byId(
  request: GraphQLRequest,
  persisted: PersistedDocument,
  stop: Stop,
): Promise<GraphQLResponse> {
  const { operation, protocol } = request;
  if (protocol!.persisted !== 'apollo') {
    const idMember = protocol!.persisted as 'documentId' | 'doc_id';
    return advised(await send(request, { idMember, id: persisted.id }, stop), true);
  }
  const extensions = `{"persistedQuery":{"version":1,"sha256Hash":${JSON.stringify(apolloHash(persisted.id))}}}`;
  const first = await send(request, { extensions }, stop);
  const answer = persistedAnswer(first.result);
  // Automatic persisted queries: the API does not know the hash yet and takes the document with it. Only a
  // document whose id is its SHA-256 can be registered so (the API checks that it is).
  if (answer === 'unregistered' && registrable(persisted.id)) {
    return advised(await send(request, { query: persisted.text, extensions }, stop), true);
  }
  // An API without persisted queries runs the document sent whole, unless it is said to run only trusted ones.
  if (answer === 'unsupported' && protocol?.trustedOnly !== true) {
    return sentWhole(advised(await send(request, { query: operation.query }, stop), false));
  }
  return advised(first, true);
}

/** The response, with what its errors say about persisted documents. */
function advised(response: GraphQLResponse, byId: boolean): GraphQLResponse {
  const answer = persistedAnswer(response.result);
  return answer === undefined ? response : { ...response, advice: persistedAdvice(answer, byId) };
}

/**
 * One request of the exchange, by GET or POST: a query by GET where the API wants it (see ApiProtocol.method),
 * everything else by POST; a POST answered 405 with GET allowed is sent again by GET, and the endpoint remembered.
 */
async function send(request: GraphQLRequest, payload: Payload, stop: Stop): Promise<GraphQLResponse> {
  const { endpoint, operation } = request;
  const method = request.protocol?.method ?? 'auto';
  if (operation.kind === 'query' && method !== 'post') {
    const learnt = getOnly.size > 0 && getOnly.has(endpoint.href);
    if (learnt || method === 'get') {
      const url = getUrl(endpoint, payload, operation);
      if (url.length <= MAX_GET_URL) return readGet(request, await get(request, url, stop), stop);
      if (learnt) throw tooLongForGet(endpoint, url.length, getOnly.get(endpoint.href)!);
    }
  }
  const body = postBody(payload, operation);
  // Encoding megabytes and writing them to the socket take milliseconds: a turn apart, so that pings and
  // cancellations are not kept waiting.
  if (body.length >= LARGE_BODY) await letInputIn();
  const response = await followingRedirects(request, request.endpoint, 'POST', body, stop);
  if (response.statusCode === 405 && operation.kind === 'query' && method !== 'post') {
    const allow = allowed(response);
    if (/\bGET\b/i.test(allow)) {
      response.resume();
      remember(endpoint, allow);
      const url = getUrl(endpoint, payload, operation);
      if (url.length > MAX_GET_URL) throw tooLongForGet(endpoint, url.length, allow);
      return readGet(request, await get(request, url, stop), stop);
    }
  }
  const text = await readBody(response, request.maxBytes, stop);
  return classify(response, text, request, 'POST');
}

/** The response to a GET, read and classified. */
async function readGet(
  request: GraphQLRequest,
  response: IncomingMessage,
  stop: Stop,
): Promise<GraphQLResponse> {
  // An endpoint that no longer takes GET is asked by POST again next time.
  if (response.statusCode === 405) getOnly.delete(request.endpoint.href);
  const text = await readBody(response, request.maxBytes, stop);
  return classify(response, text, request, 'GET');
}

function remember(endpoint: URL, allow: string): void {
  if (getOnly.size >= MAX_GET_ONLY) getOnly.delete(getOnly.keys().next().value!);
  getOnly.set(endpoint.href, allow);
}

/** The methods a 405 response allows, as its Allow header lists them (letters, commas and spaces only). */
function allowed(response: IncomingMessage): string {
  return String(response.headers.allow ?? '')
    .replace(/[^A-Za-z, ]/g, '')
    .trim()
    .slice(0, 100);
}

function tooLongForGet(endpoint: URL, length: number, allow: string): ToolError {
  return new ToolError(
    'INVALID_INPUT',
    `${describeEndpoint(endpoint)} takes queries by GET only (it answered a POST with 405, allowing ${allow}), and this one would need a URL of ${thousands(length)} characters, more than the ${thousands(MAX_GET_URL)} a GET may have; nothing was sent: send a shorter document or smaller variables`,
  );
}

/** The POST body: the payload, the variables and the operation's name, as one JSON object. */
function postBody(payload: Payload, operation: GraphQLOperation): string {
  // Written out rather than JSON.stringify of an object: the variables are JSON already. The document or the
  // id comes first; Apollo's hash alone has neither.
  let body =
    payload.query !== undefined
      ? `{"query":${JSON.stringify(payload.query)}`
      : payload.id !== undefined
        ? `{"${payload.idMember}":${JSON.stringify(payload.id)}`
        : '{"extensions":' + payload.extensions!;
  if (operation.variables !== undefined) body += `,"variables":${operation.variables}`;
  if (operation.operationName !== undefined) {
    body += `,"operationName":${JSON.stringify(operation.operationName)}`;
  }
  if (payload.extensions !== undefined && (payload.query !== undefined || payload.id !== undefined)) {
    body += `,"extensions":${payload.extensions}`;
  }
  return `${body}}`;
}

/**
 * The URL of a GET, as GraphQL over HTTP has it: the parameters in the query string, form-encoded, after any the
 * endpoint has; variables and extensions as JSON; those without a value left out (no variables for `{}`).
 */
function getUrl(endpoint: URL, payload: Payload, operation: GraphQLOperation): string {
  const params = new URLSearchParams();
  if (payload.query !== undefined) params.append('query', payload.query);
  if (payload.id !== undefined) params.append(payload.idMember!, payload.id);
  if (operation.operationName !== undefined) params.append('operationName', operation.operationName);
  if (operation.variables !== undefined && operation.variables !== '{}') {
    params.append('variables', operation.variables);
  }
  if (payload.extensions !== undefined) params.append('extensions', payload.extensions);
  const base = endpoint.origin + endpoint.pathname + endpoint.search;
  return `${base}${endpoint.search === '' ? '?' : '&'}${params.toString()}`;
}

/** A GET of `url`, following redirects as a POST does. */
function get(request: GraphQLRequest, url: string, stop: Stop): Promise<IncomingMessage> {
  return followingRedirects(request, new URL(url), 'GET', undefined, stop);
}

// Redirects are followed by hand: only within the endpoint's origin, so that credentials never follow
// a redirect elsewhere, and only where the caller's checkHop lets them go (a path-scoped allow-list), and
// sending the same request again, which is what a GraphQL client means (a POST stays a POST).
async function followingRedirects(
  request: GraphQLRequest,
  start: URL,
  method: 'GET' | 'POST',
  body: string | undefined,
  stop: Stop,
): Promise<IncomingMessage> {
  // The same headers for GET as for POST, Content-Type included although a GET has no body: Apollo Server's
  // CSRF prevention refuses a GET without a non-simple Content-Type (or a header of its own).
  const headers = Object.fromEntries(DEFAULT_HEADERS.merge(request.headers).entries());
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await exchange(request, url, method, headers, body, stop);
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

/**
 * One request; resolves when the response headers arrive. A pooled connection that the server closed while idle
 * fails at once, before the request reached it: a retryable request is sent once more on a new one. Each
 * attempt is published on diagnostics.httpRequest, whose subscribers may add headers (the trace context).
 */
async function exchange(
  request: GraphQLRequest,
  url: URL,
  method: 'GET' | 'POST',
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  stop: Stop,
): Promise<IncomingMessage> {
  const attempt = () => {
    if (!diagnostics.httpRequest.hasSubscribers) return exchangeOnce(url, method, headers, body, stop);
    const event = { method, url, redact: request.redact ?? ((text: string) => text), headers: {} };
    return diagnostics.httpRequest.tracePromise(
      () => exchangeOnce(url, method, { ...headers, ...event.headers }, body, stop),
      event,
    );
  };
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof StaleConnection) || request.retryable !== true || stop.reason !== undefined)
      throw error;
    return attempt();
  }
}

/** The request went out on a pooled connection that was closed already: it never reached the server. */
class StaleConnection extends Error {
  readonly code = 'ECONNRESET';
}

async function exchangeOnce(
  url: URL,
  method: 'GET' | 'POST',
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  stop: Stop,
): Promise<IncomingMessage> {
  const { request, agent } = url.protocol === 'https:' ? await loadHttps() : PLAIN;
  return new Promise((resolve, reject) => {
    if (stop.reason !== undefined) return reject(stop.reason);
    const req = request({ ...urlToHttpOptions(url), method, headers, agent });
    // Stopped here until the response arrives (readBody stops the body), rather than given a signal to
    // node:http, which watches the request's whole life for it with a handful of listeners.
    const ended = stop.during((reason) => req.destroy(reason));
    req.once('response', (response) => {
      ended();
      resolve(response);
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      ended();
      const stale = req.reusedSocket && error.code === 'ECONNRESET' && stop.reason === undefined;
      reject(stale ? new StaleConnection(error.message, { cause: error }) : error);
    });
    // Sent as a string, whose Content-Length node:http works out itself: it writes a head and a string body
    // in one write, a Buffer body in two.
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
function statusAdvice(
  status: number,
  response: IncomingMessage,
  method: 'GET' | 'POST',
  kind: GraphQLOperation['kind'],
  setting: ApiProtocol['method'],
): string {
  if (status === 404)
    return '. Nothing answers at this path: check the endpoint URL (GraphQL is often at /graphql)';
  if (status !== 405) return '';
  const allow = allowed(response);
  if (method === 'GET') {
    // Its Allow header listing GET while GET is refused too: the URL serves no GraphQL.
    return allow !== '' && /\bGET\b/i.test(allow)
      ? `. The endpoint refused POST and then GET although it lists ${allow} as allowed: nothing here takes GraphQL requests; check the endpoint URL`
      : `. The endpoint does not accept GET${allow === '' ? '' : ` (it allows ${allow})`}: this API's queries should be sent by POST`;
  }
  if (allow === '') return noAllowAdvice(kind, setting);
  if (!/\bGET\b/i.test(allow)) {
    return `. The endpoint does not accept POST; it allows ${allow}, none of which carries a GraphQL request: check the endpoint URL`;
  }
  if (kind === 'mutation') {
    return `. The endpoint does not accept POST (it allows ${allow}): it takes queries by GET, and a mutation is never sent by GET (GraphQL over HTTP forbids it), so this endpoint cannot run mutations`;
  }
  return setting === 'post'
    ? `. The endpoint does not accept POST (it allows ${allow}), and this API is set to send queries by POST only: its operator should let its queries go by GET`
    : `. The endpoint does not accept POST (it allows ${allow})`;
}

function classify(
  response: IncomingMessage,
  text: string,
  request: GraphQLRequest,
  method: 'GET' | 'POST',
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
  const start = text.slice(0, 64 * 1024);
  const preview = (request.redact === undefined ? start : request.redact(start))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, BODY_PREVIEW_CHARS);
  const body = preview === '' ? 'an empty body' : `a body starting ${JSON.stringify(preview)}`;
  const what = parsed === undefined ? 'not JSON' : 'JSON but not a GraphQL response (no "data" or "errors")';
  if (status < 200 || status > 299) {
    const line = `${status} ${response.statusMessage ?? ''}`.trim();
    throw new ToolError(
      'HTTP_ERROR',
      `HTTP ${line} with content type ${contentType} and ${body}${statusAdvice(status, response, method, request.operation.kind, request.protocol?.method)}`,
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
