// The configuration, loaded in three stages: declared (options.ts: every option once), read (read.ts: the
// command line, the environment, a config file, as given) and resolved here, with defaults and the rules across
// options, into the server's settings and a list of APIs. A reload runs the same stages on the same inputs.
import { HeaderSet } from '../http/headers.js';
import type { ApiProtocol } from '../http/post-graphql.js';
import { DEFAULT_SCALARS } from '../operations/scalars.js';
import { ambiguousPath, describeEndpoint } from '../http/endpoint.js';
import { declaration, OPTION_NAMES, type OptionName } from './options.js';
import { ConfigError, isLoopback, type Given } from './parsers.js';
import {
  commandLineSource,
  optionValues,
  readCommandLine,
  readConfigFile,
  type OptionSource,
  type OptionValues,
} from './read.js';
import {
  DEFAULT_API,
  type ApiAuth,
  type ApiConfig,
  type MutationPolicy,
  type OAuthOptions,
  type ServerConfig,
} from './types.js';

/** What the command line asks for: serve (the server's settings and its APIs), or print help or the version. */
export type Loaded =
  | {
      readonly kind: 'serve';
      readonly server: ServerConfig;
      readonly apis: readonly ApiConfig[];
      /** What was given but does nothing, for stderr. */
      readonly warnings: readonly string[];
      /** Every value a config file took from the environment: no start-up message may show one. */
      readonly fromEnvironment: readonly string[];
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' };

/** argv (without node and script) and the environment → the configuration, or a ConfigError. */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Loaded {
  const line = readCommandLine(argv);
  if (line.kind !== 'options') return { kind: line.kind };
  const commandLine = commandLineSource(line.args, env);
  const given = optionValues(commandLine);
  const path = given.get('config');
  if (path === undefined) {
    const server = readServer(given, undefined);
    const api = readApi(DEFAULT_API, given, [], undefined);
    checkAcrossOptions(server, given, [api]);
    return { kind: 'serve', server, apis: [api], warnings: [], fromEnvironment: [] };
  }
  const file = readConfigFile(path, env);
  try {
    const warnings = apiOptionsBeside(given, path);
    const top = levelOf(file.top);
    const serverOptions = optionValues(commandLine, top);
    const server = readServer(serverOptions, path);
    const levels = file.apis.map(({ name, options: own, auth }) => {
      if (!own.has('endpoint') && !file.top.has('endpoint')) {
        throw new ConfigError(`--config ${path}: apis.${name} has no endpoint`);
      }
      return {
        name,
        options: optionValues(levelOf(own), top),
        scopes: optionValues(levelOf(own)).get('oauthScopes'),
        auth,
      };
    });
    const apis = levels.map(({ name, options, scopes, auth }) => readApi(name, options, scopes ?? [], auth));
    checkAcrossOptions(server, serverOptions, apis);
    return { kind: 'serve', server, apis, warnings, fromEnvironment: file.fromEnvironment };
  } catch (error) {
    throw error instanceof ConfigError ? withoutEnvironmentValues(error, file.fromEnvironment) : error;
  }
}

/** A ConfigError whose message shows none of `values` (taken from the environment), each `[from the environment]`. */
export function withoutEnvironmentValues(error: ConfigError, values: readonly string[]): ConfigError {
  let message = error.message;
  for (const value of values)
    if (value.length >= 4) message = message.replaceAll(value, '[from the environment]');
  return message === error.message ? error : new ConfigError(message);
}

/** A level of a config file (its top, or an API's own) as a source of options. */
function levelOf(values: ReadonlyMap<OptionName, Given>): OptionSource {
  return (name) => values.get(name);
}

/**
 * With --config, an API's options come from the file: one given as an argument beside it is refused, one in the
 * environment is ignored with a warning.
 */
function apiOptionsBeside(commandLine: OptionValues, path: string): string[] {
  const warnings: string[] = [];
  for (const name of OPTION_NAMES.filter((name) => declaration(name).scope === 'api')) {
    const given = commandLine.given(name);
    if (given?.argument) {
      throw new ConfigError(
        `${given.source}: with --config, an API's options go in the file (apis.<name>.${name})`,
      );
    }
    if (given !== undefined)
      warnings.push(`${given.source} is ignored: with --config, API options come from ${path}`);
  }
  return warnings;
}

/** The server's settings. */
function readServer(options: OptionValues, configFile: string | undefined): ServerConfig {
  const server: ServerConfig = {
    transport: options.get('transport'),
    tools: options.get('tools'),
    prompts: options.get('prompts') ?? [],
    confirmTimeout: options.get('confirmTimeout'),
    traceDocuments: options.get('traceDocuments'),
    configFile,
    http: {
      host: options.get('host'),
      port: options.get('port'),
      token: options.get('httpToken'),
      allowUnauthenticated: options.get('allowUnauthenticated'),
      allowedHosts: options.get('allowedHosts'),
      maxInFlight: options.get('maxInFlight'),
      oauth: readOAuth(options),
      stateKey: options.get('stateKey'),
      store: options.get('store'),
      keepAlive: options.get('keepAlive'),
      maxOpenQuestions: options.get('maxOpenQuestions'),
    },
  };
  return Object.freeze(server);
}

/** One API's configuration, from its options (its own level first, then the file's top, then defaults). */
function readApi(
  name: string,
  options: OptionValues,
  oauthScopes: readonly string[],
  auth: ApiAuth | undefined,
): ApiConfig {
  const endpoint = options.get('endpoint');
  const allowedEndpoints = options.get('allowedEndpoints');
  const mutations = readMutationPolicy(options);
  // Under an allow-list, a path a server may read as another is refused on every call: say so now, not then.
  const endpointProblem = allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
  if (endpointProblem !== undefined) {
    throw new ConfigError(
      `${options.given('endpoint')?.source ?? '--endpoint'}: ${describeEndpoint(endpoint)} cannot be used with --allowedEndpoints: ${endpointProblem}`,
    );
  }
  // What `${env:…}` filled in of a URL is a secret: one may live in an endpoint's path (a webhook's key), and is
  // then hidden wherever the endpoint is named.
  const secretParts = [options.given('endpoint'), options.given('allowedEndpoints')].flatMap(
    (given) => given?.filledIn ?? [],
  );
  const headers = options.get('headers') ?? new HeaderSet();
  const forwardHeaders = options.get('forwardHeaders') ?? [];
  if (auth !== undefined) checkAuthHeader(name, auth, options, headers, forwardHeaders);
  return Object.freeze({
    name,
    endpoint,
    endpointName: hideParts(describeEndpoint(endpoint), secretParts),
    headers,
    secretParts,
    timeout: options.get('timeout'),
    maxComplexity: options.get('maxComplexity'),
    maxCost: options.get('maxCost'),
    allowedEndpoints,
    readOnly: mutations === 'deny',
    mutations,
    maxResponseBytes: options.get('maxResponseBytes'),
    maxSchemaChars: options.get('maxSchemaChars'),
    schemaTtl: options.get('schemaTtl'),
    maxResultChars: options.get('maxResultChars'),
    validate: options.get('validate'),
    schemaFile: options.get('schema'),
    operations: options.get('operations') ?? [],
    forwardHeaders,
    oauthScopes,
    protocol: readProtocol(options),
    scalars: options.get('scalars') ?? DEFAULT_SCALARS,
    auth,
  });
}

/**
 * The header `auth` sets is its own: a configured header of that name would be a fallback the API must never
 * get (a refused exchange sends nothing), and a forwarded one would replace the token.
 */
function checkAuthHeader(
  api: string,
  auth: ApiAuth,
  options: OptionValues,
  headers: HeaderSet,
  forwardHeaders: ApiConfig['forwardHeaders'],
): void {
  const name = auth.header;
  if (headers.has(name)) {
    throw new ConfigError(
      `${options.given('headers')!.source} sets ${name}, the header apis.${api}.auth sends its token in: remove it (an API with auth never gets a configured ${name}, not even as a fallback)`,
    );
  }
  const forwarded = forwardHeaders.find(({ to }) => to.toLowerCase() === name.toLowerCase());
  if (forwarded !== undefined) {
    throw new ConfigError(
      `${options.given('forwardHeaders')!.source} forwards ${forwarded.from} as ${forwarded.to}, the header apis.${api}.auth sends its token in: forward it under another name`,
    );
  }
}

/**
 * A token exchange trades a verified user's access token: only remote mode with OAuth has one. On stdio, with
 * --httpToken (one secret shared by everyone) or without authentication, nobody is verified.
 */
function checkTokenExchange(server: ServerConfig, apis: readonly ApiConfig[]): void {
  const api = apis.find((api) => api.auth?.kind === 'tokenExchange');
  if (api === undefined || (server.transport === 'http' && server.http.oauth !== undefined)) return;
  const { token, allowUnauthenticated } = server.http;
  const now =
    server.transport === 'stdio'
      ? 'on stdio nobody signs in'
      : token !== undefined
        ? 'with --httpToken every user holds the same token'
        : allowUnauthenticated
          ? 'with --allowUnauthenticated nobody is verified here'
          : 'without --oauthIssuer nobody signs in';
  throw new ConfigError(
    `${api.auth!.source} needs remote mode with OAuth (--transport=http with --oauthIssuer and --oauthAudience): it exchanges each user's verified access token, and ${now}; use clientCredentials for the server's own identity`,
  );
}

/** `text` with each of `parts` replaced by `[redacted]`. */
function hideParts(text: string, parts: readonly string[]): string {
  return parts.reduce((shown, part) => shown.replaceAll(part, '[redacted]'), text);
}

/**
 * How the API takes requests. Trusted documents only means nothing without a way to send them by id, and needs
 * the schema from a file: such an API refuses the introspection query like any document it does not know.
 */
function readProtocol(options: OptionValues): ApiProtocol {
  const persisted = options.get('persistedQueries');
  const trustedOnly = options.get('trustedDocumentsOnly');
  if (trustedOnly && persisted === undefined) {
    throw new ConfigError(
      `${options.given('trustedDocumentsOnly')!.source} needs --persistedQueries (apollo, documentId or doc_id): without a way to send documents by id, every call would be refused`,
    );
  }
  if (trustedOnly && options.get('schema') === undefined) {
    throw new ConfigError(
      `${options.given('trustedDocumentsOnly')!.source} needs --schema (the API's schema as SDL or an introspection result as JSON): an API that runs only its trusted documents refuses the introspection query, so its schema cannot be read from it`,
    );
  }
  return { method: options.get('queryMethod'), persisted, trustedOnly };
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

/**
 * The rules across options, in this order: a token exchange needs OAuth, a server offers at least one tool,
 * remote mode's options need remote mode, and remote mode's own rules.
 */
function checkAcrossOptions(
  server: ServerConfig,
  serverOptions: OptionValues,
  apis: readonly ApiConfig[],
): void {
  checkTokenExchange(server, apis);
  checkToolsOffered(server, serverOptions, apis);
  if (server.transport === 'stdio') checkNoRemoteOptions(serverOptions);
  else {
    checkRemoteMode(server.http, serverOptions);
    checkMcpTokenKept(server.http, apis);
  }
}

/** --tools=none leaves only the operation tools: some API must have operations. */
function checkToolsOffered(
  server: ServerConfig,
  serverOptions: OptionValues,
  apis: readonly ApiConfig[],
): void {
  if (server.tools.length === 0 && apis.every((api) => api.operations.length === 0)) {
    throw new ConfigError(
      `${serverOptions.given('tools')!.source}=none leaves no tool to offer: give --operations too`,
    );
  }
}

/** On stdio, an option of remote mode only given as an argument is a mistake worth stopping for. */
function checkNoRemoteOptions(serverOptions: OptionValues): void {
  // Arguments only (an environment shared with a remote deployment may hold its variables, and a config file's
  // values are no arguments), all of which the server's options hold.
  const given = OPTION_NAMES.filter((name) => declaration(name).remoteOnly)
    .map((name) => serverOptions.given(name))
    .find((value) => value?.argument);
  if (given) throw new ConfigError(`${given.source} applies only with --transport=http`);
}

/**
 * Remote mode's front: a shared store needs the state key, one way to authenticate at most, and a server
 * reachable beyond loopback authenticates (or says a proxy in front does).
 */
function checkRemoteMode(http: ServerConfig['http'], serverOptions: OptionValues): void {
  const { host, token, allowUnauthenticated, oauth, store, stateKey } = http;
  if (store !== undefined && stateKey === undefined) {
    throw new ConfigError(
      `${serverOptions.given('store')!.source} needs --stateKey (GRAPHQL_MCP_STATE_KEY), the same on every replica: a question asked by one replica is answered at another, which must recognise what the first one signed`,
    );
  }
  if (token !== undefined && oauth !== undefined) {
    throw new ConfigError('--httpToken and --oauthIssuer cannot be combined: choose one way to authenticate');
  }
  if (token === undefined && oauth === undefined && !allowUnauthenticated && !isLoopback(host)) {
    throw new ConfigError(
      `--host ${host} is not a loopback interface: set --httpToken (or MCP_HTTP_TOKEN) or --oauthIssuer, or pass --allowUnauthenticated if a proxy in front authenticates`,
    );
  }
}

/** The incoming Authorization header carries the MCP token where the server checks one: no API is sent it. */
function checkMcpTokenKept(http: ServerConfig['http'], apis: readonly ApiConfig[]): void {
  const { token, oauth } = http;
  const forwardsToken = apis.some((api) =>
    api.forwardHeaders.some(({ from }) => from.toLowerCase() === 'authorization'),
  );
  if ((token !== undefined || oauth !== undefined) && forwardsToken) {
    const by = token !== undefined ? '--httpToken' : '--oauthIssuer';
    throw new ConfigError(
      `--forwardHeaders cannot forward the incoming Authorization header while ${by} is set: it carries the MCP token. Forward another header under that name instead, e.g. --forwardHeaders=X-GraphQL-Authorization:Authorization`,
    );
  }
}
