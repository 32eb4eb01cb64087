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
import { readConfigFile } from './config-file.js';
import {
  commandLineSource,
  declaration,
  OPTION_NAMES,
  optionValues,
  readCommandLine,
  type GivenValue,
  type OptionName,
  type OptionSource,
  type OptionValues,
} from './options.js';

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
  /** The API's name: its key under `apis` in a config file, or `default` for the command line's one API. */
  readonly api: string;
  /** The startup headers of every API of the server: secrets of every answer, whichever API it comes from. */
  readonly secretHeaders: readonly HeaderSet[];
  /** Every API's configured URLs (endpoint, --allowedEndpoints): their query-string values are secrets too. */
  readonly secretUrls: readonly URL[];
  /** Scopes an OAuth token needs to use this API (a config file's `apis.<name>.oauthScopes`). */
  readonly apiScopes: readonly string[];
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

/** The name of the command line's one API, where no config file names APIs. */
export const DEFAULT_API = 'default';

/** What the command line asks for: serve these APIs (the first is `config`), or print help or the version. */
export type Command =
  | {
      readonly kind: 'serve';
      /** The first API: the command line's one API, or a config file's first. */
      readonly config: Config;
      readonly apis: readonly Config[];
      /** The config file (--config), read again when it changes. */
      readonly configFile: string | undefined;
      /** What was given but does nothing, for stderr. */
      readonly warnings: readonly string[];
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' };

/** argv (without node and script) and the environment → one validated, frozen Command. */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const line = readCommandLine(argv);
  if (line.kind !== 'options') return { kind: line.kind };
  const commandLine = commandLineSource(line.args, env);
  const options = optionValues(commandLine);
  const path = options.get('config');
  if (path === undefined) {
    const config = withSecrets([readApi(DEFAULT_API, options, options, [])])[0]!;
    return { kind: 'serve', config, apis: [config], configFile: undefined, warnings: [] };
  }
  const file = readConfigFile(path, env);
  const warnings: string[] = [];
  // An API's options come from the file; given beside it, they would describe no API.
  for (const name of OPTION_NAMES.filter((name) => declaration(name).scope === 'api')) {
    const given = options.given(name);
    if (given?.argument) {
      throw new ConfigError(
        `${given.source}: with --config, an API's options go in the file (apis.<name>.${name})`,
      );
    }
    if (given !== undefined)
      warnings.push(`${given.source} is ignored: with --config, API options come from ${path}`);
  }
  const server = optionValues(commandLine, fileLevel(file.top));
  const apis = file.apis.map(({ name, options: own }) => {
    if (own.get('endpoint') === undefined && file.top.get('endpoint') === undefined) {
      throw new ConfigError(`--config ${path}: apis.${name} has no endpoint`);
    }
    const scopes = optionValues(fileLevel(own)).get('oauthScopes') ?? [];
    return readApi(name, optionValues(fileLevel(own), fileLevel(file.top)), server, scopes);
  });
  const all = withSecrets(apis);
  return { kind: 'serve', config: all[0]!, apis: all, configFile: path, warnings };
}

/** A level of a config file (its top, or an API's own) as a source of options. */
function fileLevel(values: ReadonlyMap<OptionName, GivenValue>): OptionSource {
  return (name) => values.get(name);
}

/** Each API with every API's startup headers, to hide wherever an answer echoes one. */
export function withSecrets(apis: readonly Config[]): Config[] {
  const secretHeaders = apis.map((api) => api.headers);
  const secretUrls = apis.flatMap((api) => [api.endpoint, ...(api.allowedEndpoints ?? [])]);
  return apis.map((api) => Object.freeze({ ...api, secretHeaders, secretUrls }));
}

/** One API's configuration: its own options from `api`, the server's from `server`. */
function readApi(
  name: string,
  options: OptionValues,
  server: OptionValues,
  scopes: readonly string[],
): Config {
  const endpoint = options.get('endpoint');
  const mutations = readMutationPolicy(options);
  const config: Config = {
    api: name,
    secretHeaders: [],
    secretUrls: [],
    apiScopes: scopes,
    endpoint,
    headers: options.get('headers') ?? new HeaderSet(),
    timeout: options.get('timeout'),
    maxComplexity: options.get('maxComplexity'),
    allowedEndpoints: options.get('allowedEndpoints'),
    readOnly: mutations === 'deny',
    mutations,
    confirmTimeout: server.get('confirmTimeout'),
    maxResponseBytes: options.get('maxResponseBytes'),
    maxSchemaChars: options.get('maxSchemaChars'),
    schemaTtl: options.get('schemaTtl'),
    maxResultChars: options.get('maxResultChars'),
    validate: options.get('validate'),
    schemaFile: options.get('schema'),
    operations: options.get('operations') ?? [],
    prompts: server.get('prompts') ?? [],
    tools: server.get('tools'),
    transport: server.get('transport'),
    http: {
      host: server.get('host'),
      port: server.get('port'),
      token: server.get('httpToken'),
      allowUnauthenticated: server.get('allowUnauthenticated'),
      allowedHosts: server.get('allowedHosts'),
      forwardHeaders: options.get('forwardHeaders') ?? [],
      maxInFlight: server.get('maxInFlight'),
      oauth: readOAuth(server),
      stateKey: server.get('stateKey'),
    },
  };
  checkHttpOptions(config, server, options);
  // Under an allow-list, a path a server may read as another is refused on every call: say so now, not then.
  const endpointProblem = config.allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
  if (endpointProblem !== undefined) {
    throw new ConfigError(
      `${options.given('endpoint')?.source ?? '--endpoint'}: ${describeEndpoint(endpoint)} cannot be used with --allowedEndpoints: ${endpointProblem}`,
    );
  }
  if (config.tools.length === 0 && config.operations.length === 0) {
    throw new ConfigError(
      `${server.given('tools')!.source}=none leaves no tool to offer: give --operations too`,
    );
  }
  return config;
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
function checkHttpOptions(config: Config, server: OptionValues, api: OptionValues): void {
  if (config.transport === 'stdio') {
    // Arguments only: an environment shared with a remote deployment may hold its variables.
    const given = OPTION_NAMES.filter((name) => declaration(name).remoteOnly)
      .map((name) => (declaration(name).scope === 'api' ? api : server).given(name))
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
