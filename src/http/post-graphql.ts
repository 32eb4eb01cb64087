import { ToolError } from '../errors.js';
import { VERSION } from '../version.js';
import { describeEndpoint } from './endpoint.js';
import { HeaderSet } from './headers.js';

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
}

/** A GraphQL response: an object with `data` (object or null) and/or a non-empty `errors` array. */
export interface GraphQLResponse {
  readonly status: number;
  readonly result: Record<string, unknown>;
}

const MAX_REDIRECTS = 5;
const BODY_PREVIEW_CHARS = 200;

const DEFAULT_HEADERS = new HeaderSet();
DEFAULT_HEADERS.trySet('Content-Type', 'application/json');
DEFAULT_HEADERS.trySet('Accept', 'application/graphql-response+json, application/json;q=0.9');
DEFAULT_HEADERS.trySet('User-Agent', `graphql-mcp/${VERSION}`);

class Cancelled extends Error {}

/**
 * POSTs a GraphQL request and classifies what comes back. Resolves with any GraphQL response, whatever
 * its HTTP status; everything else is a ToolError (TIMEOUT, NETWORK_ERROR, HTTP_ERROR, INVALID_RESPONSE,
 * RESPONSE_TOO_LARGE, CANCELLED).
 */
export async function postGraphQL(request: GraphQLRequest): Promise<GraphQLResponse> {
  const controller = new AbortController();
  const deadline = new ToolError(
    'TIMEOUT',
    `no complete response from ${describeEndpoint(request.endpoint)} within the ${request.timeoutMs} ms deadline; raise timeout, or ask for less`,
  );
  const timer = setTimeout(() => controller.abort(deadline), request.timeoutMs);
  const cancel = () => controller.abort(new Cancelled());
  if (request.signal?.aborted) cancel();
  request.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const response = await fetchFollowingRedirects(request, controller.signal);
    const text = await readBody(response, request.maxBytes);
    return classify(response, text);
  } catch (error) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
    if (reason instanceof ToolError) throw reason;
    if (reason instanceof Cancelled) throw new ToolError('CANCELLED', 'the client cancelled the call');
    if (error instanceof ToolError) throw error;
    throw networkError(request.endpoint, error);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', cancel);
  }
}

// Redirects are followed by hand: only within the endpoint's origin, so that credentials never follow
// a redirect elsewhere, and re-POSTing the same body, which is what a GraphQL client means.
async function fetchFollowingRedirects(request: GraphQLRequest, signal: AbortSignal): Promise<Response> {
  const headers = DEFAULT_HEADERS.merge(request.headers).entries();
  let url = request.endpoint;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    let target: URL;
    try {
      target = new URL(location, url);
    } catch {
      throw new ToolError(
        'HTTP_ERROR',
        `HTTP ${response.status} from ${describeEndpoint(url)} redirects to an invalid URL`,
      );
    }
    if (target.origin !== request.endpoint.origin) {
      throw new ToolError(
        'HTTP_ERROR',
        `HTTP ${response.status} from ${describeEndpoint(url)} redirects to ${describeEndpoint(target)}, another origin; not followed (call that endpoint directly if it is the right one)`,
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

// Counts decoded bytes as they stream in, so an endless or huge body is cut off at the cap.
async function readBody(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (!response.headers.has('content-encoding') && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for await (const chunk of response.body) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        // Leaving the loop early cancels the stream, which closes the connection.
        throw tooLarge(maxBytes);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    // A body that claims gzip or br but does not decode was still an answer: a bad one, not a network failure.
    if (causeCode(error)?.match(/^(Z_|ERR_BROTLI|ERR__ERROR)/)) {
      const encoding = response.headers.get('content-encoding');
      throw new ToolError(
        'INVALID_RESPONSE',
        `HTTP ${response.status} with content encoding ${encoding} whose body does not decode (${causeCode(error)})`,
      );
    }
    throw error;
  }
  return new TextDecoder().decode(Buffer.concat(chunks, received));
}

function tooLarge(maxBytes: number): ToolError {
  return new ToolError(
    'RESPONSE_TOO_LARGE',
    `the response is larger than ${maxBytes} bytes, the most this server accepts; select fewer fields or fewer items (e.g. a smaller "first:" argument)`,
  );
}

function classify(response: Response, text: string): GraphQLResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isGraphQLResponse(parsed)) return { status: response.status, result: parsed };

  const contentType = response.headers.get('content-type') ?? 'none';
  const preview = text.replace(/\s+/g, ' ').trim().slice(0, BODY_PREVIEW_CHARS);
  const body = preview === '' ? 'an empty body' : `a body starting ${JSON.stringify(preview)}`;
  const what = parsed === undefined ? 'not JSON' : 'JSON but not a GraphQL response (no "data" or "errors")';
  if (!response.ok) {
    const status = `${response.status} ${response.statusText}`.trim();
    throw new ToolError('HTTP_ERROR', `HTTP ${status} with content type ${contentType} and ${body}`);
  }
  throw new ToolError(
    'INVALID_RESPONSE',
    `HTTP ${response.status} with content type ${contentType} and ${body}: ${what}`,
  );
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
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
};

/** The first error code in an error's cause chain (fetch wraps the system error). */
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
