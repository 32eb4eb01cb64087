import type { ApiConfig } from '../config/types.js';
import { ToolError } from '../common/errors.js';
import { ambiguousPath, describeEndpoint } from '../http/endpoint.js';

// The rules of trust: the operator trusts an API's own origin and its --allowedEndpoints entries, nothing else.
// A prompt-injected model picks the per-call endpoint, so it must not be able to steer credentials away.
// target.ts applies them once per call.

/** Whether the model may call this endpoint at all under this API. */
export function isEndpointAllowed(api: ApiConfig, endpoint: URL): boolean {
  if (api.allowedEndpoints === undefined) return true;
  return ambiguousPath(endpoint) === undefined && isTrusted(api, endpoint);
}

/** Whether the API's configured headers may be sent to this endpoint. */
export function isTrusted(api: ApiConfig, endpoint: URL): boolean {
  if (endpoint.origin === api.endpoint.origin) return true;
  const entries = api.allowedEndpoints ?? [];
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

/** Why the model may not call this endpoint, following its name (`is not an allowed endpoint; …`), or undefined. */
export function notAllowed(api: ApiConfig, endpoint: URL): string | undefined {
  if (isEndpointAllowed(api, endpoint)) return undefined;
  const why = api.allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
  return `is not an allowed endpoint${why ? ` (${why})` : ''}; allowed: ${describeAllowed(api)}`;
}

/** The allowed endpoints, for messages. */
function describeAllowed(api: ApiConfig): string {
  const entries = [`${api.endpoint.origin}/ (the default endpoint's origin)`];
  for (const entry of api.allowedEndpoints ?? []) entries.push(describeEndpoint(entry));
  return entries.join(', ');
}

/**
 * Which API a call is for: the one it names; else, when it gives an endpoint, the API that trusts it (its origin,
 * or one of its --allowedEndpoints), so that its credentials are the ones that may go there; else the first.
 * Credentials are never guessed: an endpoint that several APIs trust needs the call to name one
 * (INVALID_INPUT naming them).
 */
export function apiFor<A extends { readonly config: ApiConfig }>(
  apis: readonly A[],
  name: string | undefined,
  endpoint: URL | undefined,
): A {
  if (name !== undefined) return apis.find((api) => api.config.name === name) ?? apis[0]!;
  if (endpoint === undefined) return apis[0]!;
  const trusting = apis.filter((api) => isTrusted(api.config, endpoint));
  if (trusting.length > 1) {
    throw new ToolError(
      'INVALID_INPUT',
      `${describeEndpoint(endpoint)} is trusted by the APIs ${trusting.map((api) => api.config.name).join(' and ')}, whose credentials differ; name the one to use in the api input`,
    );
  }
  return trusting[0] ?? apis[0]!;
}
