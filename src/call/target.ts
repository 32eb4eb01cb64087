import { ToolError } from '../common/errors.js';
import { describeEndpoint, EndpointError, parseEndpoint } from '../http/endpoint.js';
import { HeaderError, HeaderSet } from '../http/headers.js';
import type { Api } from '../api/api.js';
import { apiFor, isTrusted, notAllowed } from './security.js';

// Where one call goes, worked out once when it starts: its API, the endpoint, the headers to send, what the
// API's credentials may reach, and the rule for redirects. Every later step reads this value.

/** Where a call goes, and with what. */
export interface CallTarget {
  readonly api: Api;
  readonly endpoint: URL;
  /** The call's own headers, from its `headers` input. */
  readonly own: HeaderSet;
  /** What is sent: the API's configured headers where they may go, then the call's own, replacing by name. */
  readonly headers: HeaderSet;
  /** Whether the API's configured headers may go to this endpoint. */
  readonly trusted: boolean;
  /** The API's header names not sent (withheld, and not replaced by one of the call's own). */
  readonly withheld: readonly string[];
}

/** The target of a call to `endpoint` under `api`, or ENDPOINT_NOT_ALLOWED listing what is allowed. */
export function targetOf(api: Api, endpoint: URL, own: HeaderSet = EMPTY): CallTarget {
  const refused = notAllowed(api.config, endpoint);
  if (refused !== undefined) {
    throw new ToolError('ENDPOINT_NOT_ALLOWED', `${describeEndpoint(endpoint)} ${refused}`);
  }
  const trusted = isTrusted(api.config, endpoint);
  const configured = api.config.headers;
  return {
    api,
    endpoint,
    own,
    trusted,
    headers: trusted ? configured.merge(own) : own,
    withheld: trusted ? [] : configured.names().filter((name) => !own.has(name)),
  };
}
const EMPTY = new HeaderSet();

/**
 * The target of a call from its checked inputs: the API it names (else the one that trusts its endpoint, else
 * the first), the endpoint (its own, else the API's) and its own headers. The headers are read from the raw
 * arguments: a validator's copy silently drops a "__proto__" key, and they go to the endpoint as given.
 */
export function callTarget(
  apis: readonly Api[],
  input: { readonly api?: string; readonly endpoint?: string; readonly headers?: unknown },
  raw: Record<string, unknown>,
): CallTarget {
  const given = input.endpoint === undefined ? undefined : readEndpoint(input.endpoint);
  const api = apiFor(apis, input.api, given);
  const own = readHeaders(input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>));
  return targetOf(api, given ?? api.config.endpoint, own);
}

/** The note a result carries when the API's headers were withheld, so that a 401 there is understood. */
export function withheldNotes(target: CallTarget): string[] {
  if (target.withheld.length === 0) return [];
  const { config } = target.api;
  return [
    `Note: the startup headers (${target.withheld.join(', ')}) were not sent to ${describeEndpoint(target.endpoint)}: ` +
      `they go only to ${config.endpoint.origin}${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}. ` +
      'Pass the credentials this endpoint needs in the headers input.',
  ];
}

/**
 * The redirect rule of a call, for postGraphQL's checkHop: why a hop may not be followed, or undefined. A hop is
 * checked as a direct call would be, so that a path-scoped --allowedEndpoints bounds where credentials go; and
 * every hop is sent the first request's headers, so one that a direct call would send other headers (trusted
 * against not) is not followed either.
 */
export function redirectRule(target: CallTarget): (hop: URL) => string | undefined {
  const { config } = target.api;
  return (hop) => {
    const refused = notAllowed(config, hop);
    if (refused !== undefined) return `which ${refused}`;
    if (isTrusted(config, hop) !== target.trusted) {
      return `where a direct call ${target.trusted ? 'would not get' : 'would get'} the startup headers`;
    }
    return undefined;
  };
}

/**
 * What to do about a 401 or 403: which header names were sent to this endpoint and which configured ones were
 * not (names only, never values).
 */
export function credentialAdvice(target: CallTarget): string {
  const { config } = target.api;
  const sentNames = target.headers.names();
  const where = `${config.endpoint.origin}${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}`;
  if (sentNames.length > 0) {
    const also =
      target.withheld.length > 0
        ? `; the startup headers ${target.withheld.join(', ')} were not sent here`
        : '';
    return (
      `Sent to ${describeEndpoint(target.endpoint)}: the headers ${sentNames.join(', ')}${also}. ` +
      'Check that the credential is valid and allowed to do this, or pass another in the headers input'
    );
  }
  if (target.withheld.length > 0) {
    return `No credentials were sent: the startup headers ${target.withheld.join(', ')} go only to ${where}. Pass the credentials this endpoint needs in the headers input`;
  }
  return (
    'No credentials were sent: configure them when starting the server (--headers or GRAPHQL_HEADERS, e.g. ' +
    '{"Authorization":"Bearer <token>"}), or pass them in the headers input'
  );
}

/** The endpoint input, checked: INVALID_INPUT saying what is wrong (never its user-info or query). */
function readEndpoint(given: string): URL {
  try {
    return parseEndpoint(given);
  } catch (error) {
    if (error instanceof EndpointError) throw new ToolError('INVALID_INPUT', `endpoint ${error.message}`);
    throw error;
  }
}

/** The call's headers as a HeaderSet, or INVALID_INPUT naming the bad header (never its value). */
function readHeaders(given: Record<string, unknown> | undefined): HeaderSet {
  try {
    return HeaderSet.of(given ?? {});
  } catch (error) {
    if (error instanceof HeaderError) throw new ToolError('INVALID_INPUT', `headers: ${error.message}`);
    throw error;
  }
}
