// What an API's answer is, as GraphQL over HTTP has a client process it: a well-formed GraphQL response (an
// object with `data` and/or `errors`) is the result, whatever its status and media type, since legacy servers
// answer errors with 4xx and 5xx under application/json and the model reads the errors either way; anything
// else is HTTP_ERROR (a status outside 2xx: a proxy's, a gateway's, a wrong URL's, with what to do about it,
// status-advice.ts) or INVALID_RESPONSE (2xx, but no GraphQL response). And the other ways an exchange ends
// without one: RESPONSE_TOO_LARGE, a body that does not decode, NETWORK_ERROR.

import type { IncomingMessage } from 'node:http';
import { ToolError } from '../common/errors.js';
import { isObject } from '../common/is-object.js';
import { thousands } from '../common/text.js';
import { describeEndpoint } from './endpoint.js';
import { statusAdvice } from './status-advice.js';

/** A well-formed GraphQL response, as it came: its HTTP status, and the object with `data` and/or `errors`. */
export interface WellFormedResponse {
  readonly status: number;
  readonly result: Record<string, unknown>;
}

/** What an answer's meaning depends on, of the request it answers (a GraphQLRequest has it all). */
interface Asked {
  /** A mutation is never sent by GET. */
  readonly operation: { readonly kind: 'query' | 'mutation' };
  /** How the API's queries travel (ApiProtocol.method). */
  readonly protocol?: { readonly method?: 'auto' | 'get' | 'post' } | undefined;
  /** Hides secrets in the body before a message quotes its start. */
  readonly redact?: ((text: string) => string) | undefined;
}

/**
 * Most levels of objects and arrays a response may nest, the response object included: far beyond any
 * real answer (a document is nested MAX_DEPTH levels at most), and well within what the recursive code
 * after the parse (validation, serialisation) can walk on a default stack.
 */
export const MAX_RESPONSE_DEPTH = 1_000;

const BODY_PREVIEW_CHARS = 200;

/**
 * The answer to a request sent by `method`, its body read as `text`: a well-formed GraphQL response, whatever
 * its status; else HTTP_ERROR (a status outside 2xx) or INVALID_RESPONSE, quoting the body's start, redacted.
 */
export function classifyResponse(
  response: IncomingMessage,
  text: string,
  request: Asked,
  method: 'GET' | 'POST',
): WellFormedResponse {
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

/**
 * Whether a parsed body is a GraphQL response: an object whose `data` is an object or null, `errors` a list and
 * `extensions` an object, with `data` or at least one error.
 */
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

/** RESPONSE_TOO_LARGE: the body, decoded, is over the cap (--maxResponseBytes). */
export function tooLarge(maxBytes: number): ToolError {
  return new ToolError(
    'RESPONSE_TOO_LARGE',
    `the response is larger than ${maxBytes} bytes, the most this server accepts; select fewer fields or fewer items (e.g. a smaller "first:" argument)`,
  );
}

/**
 * INVALID_RESPONSE for a body that claims gzip, deflate or br but does not decode, else undefined: it was still
 * an answer, a bad one, not a network failure.
 */
export function undecodable(
  response: IncomingMessage,
  encoding: string,
  error: unknown,
): ToolError | undefined {
  if (!causeCode(error)?.match(/^(Z_|ERR_BROTLI|ERR__ERROR)/)) return undefined;
  return new ToolError(
    'INVALID_RESPONSE',
    `HTTP ${response.statusCode} with content encoding ${encoding} whose body does not decode (${causeCode(error)})`,
  );
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

/** NETWORK_ERROR: no answer at all, named by the innermost error code (ECONNREFUSED: connection refused). */
export function networkError(endpoint: URL, error: unknown): ToolError {
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
