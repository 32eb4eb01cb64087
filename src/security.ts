import type { Config } from './config.js';
import { ToolError } from './errors.js';
import { ambiguousPath, describeEndpoint } from './http/endpoint.js';
import type { HeaderSet } from './http/headers.js';

// The operator trusts the default endpoint's origin and the --allowedEndpoints entries; nothing else.
// A prompt-injected model picks the per-call endpoint, so it must not be able to steer credentials away.

/** Whether the model may call this endpoint at all. */
export function isEndpointAllowed(config: Config, endpoint: URL): boolean {
  if (config.allowedEndpoints === undefined) return true;
  return ambiguousPath(endpoint) === undefined && isTrusted(config, endpoint);
}

/** Whether the startup headers may be sent to this endpoint. */
export function isTrusted(config: Config, endpoint: URL): boolean {
  if (endpoint.origin === config.endpoint.origin) return true;
  const entries = config.allowedEndpoints ?? [];
  return (
    entries.length > 0 &&
    ambiguousPath(endpoint) === undefined &&
    entries.some((entry) => matchesEntry(entry, endpoint))
  );
}

// An entry whose path ends with "/" covers every path below it; any other entry is one exact endpoint.
function matchesEntry(entry: URL, endpoint: URL): boolean {
  if (entry.origin !== endpoint.origin) return false;
  return entry.pathname.endsWith('/')
    ? endpoint.pathname.startsWith(entry.pathname)
    : endpoint.pathname === entry.pathname;
}

/** ENDPOINT_NOT_ALLOWED, listing what is allowed, unless the model may call this endpoint. */
export function assertEndpointAllowed(config: Config, endpoint: URL): void {
  if (!isEndpointAllowed(config, endpoint)) {
    const why = config.allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
    throw new ToolError(
      'ENDPOINT_NOT_ALLOWED',
      `${describeEndpoint(endpoint)} is not an allowed endpoint${why ? ` (${why})` : ''}; allowed: ${describeAllowed(config)}`,
    );
  }
}

/**
 * The redirect rule of a call to `endpoint`, for postGraphQL's checkHop: why a hop may not be followed, or
 * undefined. A hop is checked as a direct call would be, so that a path-scoped --allowedEndpoints bounds where
 * credentials go; and every hop is sent the first request's headers, so one that a direct call would send
 * other headers (trusted against not) is not followed either.
 */
export function redirectCheck(config: Config, endpoint: URL): (target: URL) => string | undefined {
  return (target) => {
    if (!isEndpointAllowed(config, target)) {
      const why = ambiguousPath(target);
      return `which is not an allowed endpoint${why ? ` (${why})` : ''}; allowed: ${describeAllowed(config)}`;
    }
    const trusted = isTrusted(config, endpoint);
    if (isTrusted(config, target) !== trusted) {
      return `where a direct call ${trusted ? 'would not get' : 'would get'} the startup headers`;
    }
    return undefined;
  };
}

/** The allowed endpoints, for messages. */
export function describeAllowed(config: Config): string {
  const entries = [`${config.endpoint.origin}/ (the default endpoint's origin)`];
  for (const entry of config.allowedEndpoints ?? []) entries.push(describeEndpoint(entry));
  return entries.join(', ');
}

/** The headers for a request: the startup headers where trusted, then the call's, replacing by name. */
export function headersFor(
  config: Config,
  endpoint: URL,
  callHeaders: HeaderSet,
): { headers: HeaderSet; notes: string[] } {
  if (isTrusted(config, endpoint)) return { headers: config.headers.merge(callHeaders), notes: [] };
  const withheld = config.headers.names().filter((name) => !callHeaders.has(name));
  const notes =
    withheld.length === 0
      ? []
      : [
          `Note: the startup headers (${withheld.join(', ')}) were not sent to ${describeEndpoint(endpoint)}: ` +
            `they go only to ${config.endpoint.origin}${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}. ` +
            'Pass the credentials this endpoint needs in the headers input.',
        ];
  return { headers: callHeaders, notes };
}

/**
 * What to do about a 401 or 403: which header names were sent to this endpoint and which configured ones were
 * not (names only, never values).
 */
export function credentialAdvice(config: Config, endpoint: URL, sent: HeaderSet): string {
  const sentNames = sent.names();
  const withheld = config.headers.names().filter((name) => !sent.has(name));
  if (sentNames.length > 0) {
    const also = withheld.length > 0 ? `; the startup headers ${withheld.join(', ')} were not sent here` : '';
    return (
      `Sent to ${describeEndpoint(endpoint)}: the headers ${sentNames.join(', ')}${also}. ` +
      'Check that the credential is valid and allowed to do this, or pass another in the headers input'
    );
  }
  if (withheld.length > 0) {
    return (
      `No credentials were sent: the startup headers ${withheld.join(', ')} go only to ${config.endpoint.origin}` +
      `${config.allowedEndpoints ? ' and the --allowedEndpoints' : ''}. Pass the credentials this endpoint needs in the headers input`
    );
  }
  return (
    'No credentials were sent: configure them when starting the server (--headers or GRAPHQL_HEADERS, e.g. ' +
    '{"Authorization":"Bearer <token>"}), or pass them in the headers input'
  );
}

/**
 * Which API a call is for: the one it names; else, when it gives an endpoint, the API that trusts it (its origin,
 * or one of its --allowedEndpoints), so that its credentials are the ones that may go there; else the first.
 * Credentials are never guessed: an endpoint that several APIs trust needs the call to name one
 * (INVALID_INPUT naming them).
 */
export function apiFor(apis: readonly Config[], name: string | undefined, endpoint: URL | undefined): Config {
  if (name !== undefined) return apis.find((api) => api.api === name) ?? apis[0]!;
  if (endpoint === undefined) return apis[0]!;
  const trusting = apis.filter((api) => isTrusted(api, endpoint));
  if (trusting.length > 1) {
    throw new ToolError(
      'INVALID_INPUT',
      `${describeEndpoint(endpoint)} is trusted by the APIs ${trusting.map((api) => api.api).join(' and ')}, whose credentials differ; name the one to use in the api input`,
    );
  }
  return trusting[0] ?? apis[0]!;
}
