// A GraphQL request to an API, as GraphQL over HTTP has a client send it: a query by POST, or by GET where the
// API takes it (request-encoding.ts writes either); a trusted document by id where the API takes ids
// (persisted.ts); all of it within one deadline and cancellable, each HTTP exchange with its size cap and
// same-origin redirects (exchange.ts); and what comes back classified (classify-response.ts).

import type { IncomingMessage } from 'node:http';
import { cancelled, ToolError } from '../common/errors.js';
import { letInputIn } from '../common/time-slice.js';
import { thousands } from '../common/text.js';
import { classifyResponse, networkError, type WellFormedResponse } from './classify-response.js';
import { describeEndpoint } from './endpoint.js';
import { Cancelled, followingRedirects, readBody, Stop, type HttpRequest } from './exchange.js';
import {
  apolloHash,
  persistedAdvice,
  persistedAnswer,
  registrable,
  sentWhole,
  type PersistedDocument,
  type PersistedProtocol,
} from './persisted.js';
import { getUrl, MAX_GET_URL, postBody, type Payload } from './request-encoding.js';
import { allowed } from './status-advice.js';

/** One GraphQL request over HTTP: its endpoint and headers, what to run, how, and within which bounds. */
export interface GraphQLRequest extends HttpRequest {
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

/**
 * A GraphQL response (an object with `data`, object or null, and/or a non-empty `errors` array), with what its
 * errors mean when they are about persisted documents.
 */
export interface GraphQLResponse extends WellFormedResponse {
  /**
   * What the response's errors mean, when they are about persisted documents (the API runs only trusted ones,
   * does not know an id, …), and what to do; for a note beside the result.
   */
  readonly advice?: string;
}

/** A body this many characters long (milliseconds to encode) is written in a turn of its own. */
const LARGE_BODY = 1_000_000;

/**
 * Endpoints (by href) that answered a POST with 405 and an Allow header listing GET, with that header: their
 * queries go by GET from then on. Bounded, since a model chooses endpoints: the oldest is forgotten first.
 */
const getOnly = new Map<string, string>();
const MAX_GET_ONLY = 256;

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
  return classifyResponse(response, text, request, 'POST');
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
  return classifyResponse(response, text, request, 'GET');
}

function remember(endpoint: URL, allow: string): void {
  if (getOnly.size >= MAX_GET_ONLY) getOnly.delete(getOnly.keys().next().value!);
  getOnly.set(endpoint.href, allow);
}

function tooLongForGet(endpoint: URL, length: number, allow: string): ToolError {
  return new ToolError(
    'INVALID_INPUT',
    `${describeEndpoint(endpoint)} takes queries by GET only (it answered a POST with 405, allowing ${allow}), and this one would need a URL of ${thousands(length)} characters, more than the ${thousands(MAX_GET_URL)} a GET may have; nothing was sent: send a shorter document or smaller variables`,
  );
}

/** A GET of `url`, following redirects as a POST does. */
function get(request: GraphQLRequest, url: string, stop: Stop): Promise<IncomingMessage> {
  return followingRedirects(request, new URL(url), 'GET', undefined, stop);
}
