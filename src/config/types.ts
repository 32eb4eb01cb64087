import type { HeaderSet } from '../http/headers.js';
import type { ApiProtocol } from '../http/post-graphql.js';
import type { Scalars } from '../operations/scalars.js';

// The configuration as two plain things: the server's settings, one per process, and a list of APIs, each with
// its own endpoint, credentials, limits and policies. Each field is an option's value; what the option means,
// its default and its environment variable are declared once, in options.ts.

export const BUILT_IN_TOOLS = ['graphql_query', 'graphql_introspect'] as const;
export type BuiltInTool = (typeof BUILT_IN_TOOLS)[number];

/**
 * Who decides a mutation that the model allowed (`allowMutations: true`): `confirm` asks the user through the
 * client when the client can ask, and lets the model's word stand when it cannot; `require-confirm` refuses where
 * nobody can be asked; `allow` never asks; `deny` refuses every mutation (what --readOnly means).
 */
export type MutationPolicy = 'confirm' | 'require-confirm' | 'allow' | 'deny';
export const MUTATION_POLICIES: readonly MutationPolicy[] = ['confirm', 'require-confirm', 'allow', 'deny'];

/**
 * `cached`: when the endpoint's schema is known (fetched within --schemaTtl); `always`: fetch it first when
 * it is not; `off`: never.
 */
export type ValidateMode = 'cached' | 'always' | 'off';

/** The name of the command line's one API, where no config file names APIs. */
export const DEFAULT_API = 'default';

/** The server's settings: how clients reach it, what it offers, and who is asked. */
export interface ServerConfig {
  /** --transport. */
  readonly transport: 'stdio' | 'http';
  /** --tools: the built-in tools offered. */
  readonly tools: readonly BuiltInTool[];
  /** --prompts: files and directories of .md prompts, each a prompt. */
  readonly prompts: readonly string[];
  /** --confirmTimeout, in seconds: how long a person has to answer a mutation's question. */
  readonly confirmTimeout: number;
  /** --traceDocuments: telemetry records each GraphQL document (never variables). */
  readonly traceDocuments: boolean;
  /** Remote mode's settings; used only with transport http. */
  readonly http: HttpOptions;
  /** --config: the file the APIs come from, read again when it changes (stdio mode). */
  readonly configFile: string | undefined;
}

/** One API: where its calls go, with which credentials, within which limits, under which policy. */
export interface ApiConfig {
  /** Its key under `apis` in a config file, or `default` for the command line's one API. */
  readonly name: string;
  /** --endpoint: where a call without `endpoint` goes. */
  readonly endpoint: URL;
  /** The endpoint as messages and lists name it: origin and path, a secret part of the path hidden. */
  readonly endpointName: string;
  /** --headers, sent to trusted endpoints (call/security.ts). Values are secrets. */
  readonly headers: HeaderSet;
  /** Parts of the configured URLs that came from the environment (`${env:…}`): secrets like the headers. */
  readonly secretParts: readonly string[];
  /** --timeout: total deadline of one request to the endpoint, in ms. */
  readonly timeout: number;
  /** --maxComplexity; 0 turns the check off. */
  readonly maxComplexity: number;
  /** --maxCost: most list items a query may return by its estimate (graphql/cost.ts); 0 turns the check off. */
  readonly maxCost: number;
  /** --allowedEndpoints; undefined allows any. */
  readonly allowedEndpoints: readonly URL[] | undefined;
  /** --readOnly, or --mutations=deny: refuse every mutation, whatever `allowMutations` says. */
  readonly readOnly: boolean;
  /** --mutations: who decides a mutation the model allowed. */
  readonly mutations: MutationPolicy;
  /** --maxResponseBytes: largest decoded response body accepted from a query. */
  readonly maxResponseBytes: number;
  /** --maxSchemaChars: most characters graphql_introspect returns in one answer. */
  readonly maxSchemaChars: number;
  /** --schemaTtl, in seconds; 0 fetches the schema on every call. */
  readonly schemaTtl: number;
  /** --maxResultChars: most characters of compact JSON a query result keeps; 0: off. */
  readonly maxResultChars: number;
  /** --validate. */
  readonly validate: ValidateMode;
  /** --schema: a file holding the endpoint's schema. */
  readonly schemaFile: string | undefined;
  /** --operations: files and directories of operations, each named operation a tool. */
  readonly operations: readonly string[];
  /** --forwardHeaders (remote mode): incoming name → outgoing name. */
  readonly forwardHeaders: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /** Scopes an OAuth token needs to use this API (a config file's `apis.<name>.oauthScopes`). */
  readonly oauthScopes: readonly string[];
  /** How the API takes requests: --queryMethod, --persistedQueries, --trustedDocumentsOnly. */
  readonly protocol: ApiProtocol;
  /** --scalars over the defaults: the custom scalars of operation tools, typed. */
  readonly scalars: Scalars;
  /** Who the API sees (a config file's `apis.<name>.auth`): a token obtained per call; undefined: `headers`. */
  readonly auth: ApiAuth | undefined;
}

/**
 * How a token for an API is obtained from an OAuth authorization server: `tokenExchange` (RFC 8693) trades the
 * caller's verified access token for one the API accepts, so that the API sees each person; `clientCredentials`
 * (RFC 6749 §4.4) is the server's own identity. Configured in a file only (config/auth.ts reads it).
 */
export type ApiAuth = TokenExchangeAuth | ClientCredentialsAuth;

/** RFC 8693 token exchange, or Microsoft Entra's on-behalf-of flow (`grant: 'on-behalf-of'`). */
export interface TokenExchangeAuth extends OAuthClientAuth {
  readonly kind: 'tokenExchange';
  /** `token-exchange`: RFC 8693; `on-behalf-of`: the jwt-bearer grant with `requested_token_use=on_behalf_of`. */
  readonly grant: 'token-exchange' | 'on-behalf-of';
}

/** RFC 6749 §4.4: the server's own token, for an API that knows no users. */
export interface ClientCredentialsAuth extends OAuthClientAuth {
  readonly kind: 'clientCredentials';
}

/** What both kinds share: where tokens come from, who asks for them, for what, and where the token goes. */
export interface OAuthClientAuth {
  /** Where it is written: `graphql-mcp.json:12: apis.crm.auth.tokenExchange`, for messages. */
  readonly source: string;
  /** The token endpoint; undefined: the one `issuer`'s metadata names. */
  readonly tokenEndpoint: URL | undefined;
  /** The authorization server whose RFC 8414 or OpenID metadata names the token endpoint. */
  readonly issuer: URL | undefined;
  readonly clientId: string;
  /** A secret: hidden wherever anything is shown, like the configured headers. */
  readonly clientSecret: string;
  /** `audience` of the request: the API's logical name at the authorization server. */
  readonly audience: string | undefined;
  /** `resource` of the request (RFC 8707): the API's URI. */
  readonly resource: URL | undefined;
  /** Scopes asked for; empty: none named. */
  readonly scope: readonly string[];
  /** The header the token is sent in, as `Bearer <token>`. @default 'Authorization' */
  readonly header: string;
  /** How the client authenticates at the token endpoint. @default 'client_secret_basic' */
  readonly clientAuth: 'client_secret_basic' | 'client_secret_post';
  /** Deadline of one request to the authorization server (its metadata, its token endpoint), in ms. */
  readonly timeout: number;
}

/** The Streamable HTTP transport's settings (remote mode). */
interface HttpOptions {
  /** --host. */
  readonly host: string;
  /** --port; 0 picks a free one. */
  readonly port: number;
  /** --httpToken: the bearer token every /mcp request must carry; a secret. */
  readonly token: string | undefined;
  /** --allowUnauthenticated: listen on a non-loopback interface without a token. */
  readonly allowUnauthenticated: boolean;
  /** --allowedHosts: host names accepted in Host and Origin; ['*'] accepts any. */
  readonly allowedHosts: readonly string[];
  /** --maxInFlight: most /mcp requests handled at once; more are answered 503 with Retry-After. */
  readonly maxInFlight: number;
  /** The --oauth* options; undefined when remote mode does not use OAuth. */
  readonly oauth: OAuthOptions | undefined;
  /**
   * --stateKey: signs what travels through clients (a question's state, the session id), which another replica
   * may receive; a secret. Undefined: a random key per process.
   */
  readonly stateKey: string | undefined;
  /** --store: the Redis the replicas share; a secret (it may hold a password). Undefined: in memory. */
  readonly store: URL | undefined;
  /** --keepAlive, in seconds: between the comments that keep a waiting stream alive through proxies. */
  readonly keepAlive: number;
  /** --maxOpenQuestions: most questions one user may leave waiting at once on a replica. */
  readonly maxOpenQuestions: number;
}

/** Remote mode as an OAuth 2.1 resource server (src/auth/oauth.ts). */
export interface OAuthOptions {
  /** --oauthIssuer: the authorization server that issues the access tokens (its `iss`). */
  readonly issuer: URL;
  /** --oauthAudience: this server's resource identifier, which tokens must name in `aud`. */
  readonly audience: string;
  /** --oauthScopes: scopes every request's token must hold. */
  readonly scopes: readonly string[];
  /** --oauthJwksUri: where the issuer's keys are; undefined: its metadata's jwks_uri. */
  readonly jwksUri: URL | undefined;
  /** --oauthToolScopes: scopes a token must hold to see and call a tool, by tool name. */
  readonly toolScopes: ReadonlyMap<string, readonly string[]>;
}
