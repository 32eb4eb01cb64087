// One HTTP exchange with an API, as sending a GraphQL request needs it: a keep-alive pool per scheme, a stop
// (the deadline or a cancellation) that ends whichever phase is running, redirects followed only within the
// endpoint's origin, each attempt published on diagnostics.httpRequest (a stale pooled connection tried once
// more), and the body read up to the size cap, decoded.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ToolError } from '../common/errors.js';
import * as diagnostics from '../common/diagnostics.js';
import { VERSION } from '../common/version.js';
import { tooLarge, undecodable } from './classify-response.js';
import { describeEndpoint } from './endpoint.js';
import { HeaderSet } from './headers.js';

/** Where an HTTP request goes, with which headers, and what it may do on the way (GraphQLRequest has it all). */
export interface HttpRequest {
  readonly endpoint: URL;
  /** The caller's headers; they replace the defaults of the same name. */
  readonly headers: HeaderSet;
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

const MAX_REDIRECTS = 5;

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

/** The reason a request stops when the client cancels the call. */
export class Cancelled extends Error {}

/**
 * How a request ends early: its deadline passes, or the client cancels. One phase of the request at a time
 * (the POST, then its body) says how to stop it, so that one reason ends whichever phase is running.
 */
export class Stop {
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
 * The response to `method` at `start`, redirects followed by hand: only within the endpoint's origin, so that
 * credentials never follow a redirect elsewhere, and only where the caller's checkHop lets them go (a
 * path-scoped allow-list), and sending the same request again, which is what a GraphQL client means (a POST
 * stays a POST).
 */
export async function followingRedirects(
  request: HttpRequest,
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
  request: HttpRequest,
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

/**
 * The body of `response`, decoded as its Content-Encoding says: decoded bytes are counted as they stream in, so
 * that an endless or huge body is cut off at `maxBytes` (RESPONSE_TOO_LARGE).
 */
export async function readBody(response: IncomingMessage, maxBytes: number, stop: Stop): Promise<string> {
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
    throw undecodable(response, encoding, error) ?? error;
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
