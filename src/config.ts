import type { IntrospectionQuery } from 'graphql';
import { HeaderSet } from './http/headers.js';
import { ambiguousPath, describeEndpoint } from './http/endpoint.js';
import {
  ConfigError,
  isLoopback,
  type BuiltInTool,
  type MutationPolicy,
  type ValidateMode,
} from './option-parsers.js';
import { declaration, OPTION_NAMES, optionValues, readCommandLine, type OptionValues } from './options.js';

export {
  BUILT_IN_TOOLS,
  ConfigError,
  MAX_TIMEOUT_MS,
  MUTATION_POLICIES,
  type BuiltInTool,
  type MutationPolicy,
  type ValidateMode,
} from './option-parsers.js';

/**
 * The validated startup configuration. Each field is an option's parsed value; what the option means, its
 * default and its environment variable are declared in src/options.ts.
 */
export interface Config {
  /** --endpoint: where a call without `endpoint` goes. */
  readonly endpoint: URL;
  /** --headers, sent to trusted endpoints (see security.ts). Values are secrets. */
  readonly headers: HeaderSet;
  /** --timeout: total deadline of one request to the endpoint, in ms. */
  readonly timeout: number;
  /** --maxComplexity; 0 turns the check off. */
  readonly maxComplexity: number;
  /** --allowedEndpoints; undefined allows any. */
  readonly allowedEndpoints: readonly URL[] | undefined;
  /** --readOnly, or --mutations=deny: refuse every mutation, whatever `allowMutations` says. */
  readonly readOnly: boolean;
  /** --mutations: who decides a mutation the model allowed (see MutationPolicy). */
  readonly mutations: MutationPolicy;
  /** --confirmTimeout, in seconds. */
  readonly confirmTimeout: number;
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
  /** --schema: a file holding the default endpoint's schema. */
  readonly schemaFile: string | undefined;
  /** The schema read from schemaFile at start-up (src/prepare.ts); parsing leaves it undefined. */
  readonly schema?: IntrospectionQuery;
  /** --operations: files and directories of .graphql/.gql operations, each named operation a tool. */
  readonly operations: readonly string[];
  /** --prompts: files and directories of .md prompts (src/prompts/prompt-files.ts), each a prompt. */
  readonly prompts: readonly string[];
  /** --tools: the built-in tools offered. */
  readonly tools: readonly BuiltInTool[];
  /** --transport. */
  readonly transport: 'stdio' | 'http';
  /** Streamable HTTP settings; used only with transport http. */
  readonly http: HttpOptions;
}

/** The Streamable HTTP transport's settings (remote mode). */
export interface HttpOptions {
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
  /** --forwardHeaders: incoming name → outgoing name. */
  readonly forwardHeaders: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /** --maxInFlight: most /mcp requests handled at once; more are answered 503 with Retry-After. */
  readonly maxInFlight: number;
  /** The --oauth* options; undefined when remote mode does not use OAuth. */
  readonly oauth: OAuthOptions | undefined;
  /**
   * --stateKey: signs the state of a mutation's question (2026-07-28 clients answer on a later request, which
   * another replica may serve); a secret. Undefined: a random key per process.
   */
  readonly stateKey: string | undefined;
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

/** What the command line asks for: run the server with a config, or print help or the version. */
export type Command = { kind: 'serve'; config: Config } | { kind: 'help' } | { kind: 'version' };

/** argv (without node and script) and the environment → one validated, frozen Command. */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const line = readCommandLine(argv);
  if (line.kind !== 'options') return { kind: line.kind };
  const options = optionValues(line.args, env);

  const endpoint = options.get('endpoint');
  const mutations = readMutationPolicy(options);
  const config: Config = {
    endpoint,
    headers: options.get('headers') ?? new HeaderSet(),
    timeout: options.get('timeout'),
    maxComplexity: options.get('maxComplexity'),
    allowedEndpoints: options.get('allowedEndpoints'),
    readOnly: mutations === 'deny',
    mutations,
    confirmTimeout: options.get('confirmTimeout'),
    maxResponseBytes: options.get('maxResponseBytes'),
    maxSchemaChars: options.get('maxSchemaChars'),
    schemaTtl: options.get('schemaTtl'),
    maxResultChars: options.get('maxResultChars'),
    validate: options.get('validate'),
    schemaFile: options.get('schema'),
    operations: options.get('operations') ?? [],
    prompts: options.get('prompts') ?? [],
    tools: options.get('tools'),
    transport: options.get('transport'),
    http: {
      host: options.get('host'),
      port: options.get('port'),
      token: options.get('httpToken'),
      allowUnauthenticated: options.get('allowUnauthenticated'),
      allowedHosts: options.get('allowedHosts'),
      forwardHeaders: options.get('forwardHeaders') ?? [],
      maxInFlight: options.get('maxInFlight'),
      oauth: readOAuth(options),
      stateKey: options.get('stateKey'),
    },
  };
  checkHttpOptions(config, options);
  // Under an allow-list, a path a server may read as another is refused on every call: say so now, not then.
  const endpointProblem = config.allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
  if (endpointProblem !== undefined) {
    throw new ConfigError(
      `${options.given('endpoint')?.source ?? '--endpoint'}: ${describeEndpoint(endpoint)} cannot be used with --allowedEndpoints: ${endpointProblem}`,
    );
  }
  if (config.tools.length === 0 && config.operations.length === 0) {
    throw new ConfigError(
      `${options.given('tools')!.source}=none leaves no tool to offer: give --operations too`,
    );
  }
  return { kind: 'serve', config: Object.freeze(config) };
}

/** --mutations, with --readOnly as another way to say deny (the two may not disagree). */
function readMutationPolicy(options: OptionValues): MutationPolicy {
  const denied = options.get('readOnly');
  const policy = options.given('mutations');
  if (policy === undefined) return denied ? 'deny' : options.get('mutations');
  const value = options.get('mutations');
  if (denied && value !== 'deny') {
    throw new ConfigError(
      `${options.given('readOnly')!.source} refuses every mutation, but ${policy.source} is ${value}: choose one`,
    );
  }
  return value;
}

/** The --oauth* options: all or nothing, with issuer and audience at least. */
function readOAuth(options: OptionValues): OAuthOptions | undefined {
  const needed = ['oauthIssuer', 'oauthAudience'] as const;
  const others = OPTION_NAMES.filter(
    (name) => declaration(name).group === 'oauth' && !(needed as readonly string[]).includes(name),
  );
  // Named before the two they need, when given: "--oauthScopes needs …" says why those are asked for.
  const given = [...others, ...needed].find((name) => options.given(name) !== undefined);
  if (given === undefined) return undefined;
  const missing = needed.filter((name) => options.given(name) === undefined).map((name) => `--${name}`);
  if (missing.length > 0) {
    const source = options.given(given)!.source;
    if ((needed as readonly string[]).includes(given))
      throw new ConfigError(`${source} needs ${missing[0]}, which is missing`);
    const which = missing.length === 2 ? 'both are missing' : `${missing[0]} is missing`;
    throw new ConfigError(`${source} needs --oauthIssuer and --oauthAudience; ${which}`);
  }
  return {
    issuer: options.get('oauthIssuer')!,
    audience: options.get('oauthAudience')!,
    scopes: options.get('oauthScopes') ?? [],
    jwksUri: options.get('oauthJwksUri'),
    toolScopes: options.get('oauthToolScopes') ?? new Map(),
  };
}

// Rules across options: HTTP settings need HTTP mode, and an exposed server needs a token.
function checkHttpOptions(config: Config, options: OptionValues): void {
  if (config.transport === 'stdio') {
    // Arguments only: an environment shared with a remote deployment may hold its variables.
    const given = OPTION_NAMES.filter((name) => declaration(name).remoteOnly)
      .map((name) => options.given(name))
      .find((value) => value?.argument);
    if (given) throw new ConfigError(`${given.source} applies only with --transport=http`);
    return;
  }
  const { host, token, allowUnauthenticated, forwardHeaders, oauth } = config.http;
  if (token !== undefined && oauth !== undefined) {
    throw new ConfigError('--httpToken and --oauthIssuer cannot be combined: choose one way to authenticate');
  }
  if (token === undefined && oauth === undefined && !allowUnauthenticated && !isLoopback(host)) {
    throw new ConfigError(
      `--host ${host} is not a loopback interface: set --httpToken (or MCP_HTTP_TOKEN) or --oauthIssuer, or pass --allowUnauthenticated if a proxy in front authenticates`,
    );
  }
  if (
    (token !== undefined || oauth !== undefined) &&
    forwardHeaders.some(({ from }) => from.toLowerCase() === 'authorization')
  ) {
    const by = token !== undefined ? '--httpToken' : '--oauthIssuer';
    throw new ConfigError(
      `--forwardHeaders cannot forward the incoming Authorization header while ${by} is set: it carries the MCP token. Forward another header under that name instead, e.g. --forwardHeaders=X-GraphQL-Authorization:Authorization`,
    );
  }
}
