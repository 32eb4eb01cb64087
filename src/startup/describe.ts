import type { ApiConfig, ServerConfig } from '../config/types.js';

/**
 * The start-up line's account of what is served: each API's name, endpoint (a secret part of its path hidden),
 * header names (never values) and policy, and who authenticates in remote mode.
 */
export function describeStart(server: ServerConfig, apis: readonly ApiConfig[]): string {
  const oauth = server.http.oauth !== undefined ? `, OAuth tokens of ${server.http.oauth.issuer.origin}` : '';
  return apis.map((api) => describeApi(api, apis.length > 1)).join('; ') + oauth;
}

function describeApi(api: ApiConfig, named: boolean): string {
  const headers = api.headers.size > 0 ? `, headers ${api.headers.names().join(', ')}` : '';
  const readOnly = api.readOnly ? ', read-only' : `, mutations: ${api.mutations}`;
  const schema = api.schemaFile !== undefined ? `, schema from ${api.schemaFile}` : '';
  return `${named ? `${api.name}: ` : ''}${api.endpointName}${headers}${readOnly}${schema}`;
}
