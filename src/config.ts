import type { IntrospectionQuery } from 'graphql';
import { HeaderSet, ordinal, parseHeaderValue } from './http/headers.js';
import { describeEndpoint, parseEndpoint } from './http/endpoint.js';
import { ambiguousPath } from './security.js';

/** The validated startup configuration. Every default lives here. */
export interface Config {
  /** Default GraphQL endpoint. @default http://localhost:4000/graphql */
  readonly endpoint: URL;
  /** Headers sent to trusted endpoints (see security.ts). Values are secrets. @default none */
  readonly headers: HeaderSet;
  /** Total deadline of one request to the endpoint, in ms. @default 30000 */
  readonly timeout: number;
  /** Maximum complexity (fields selected) of a query; 0 turns the check off. @default 100 */
  readonly maxComplexity: number;
  /** Endpoints callable besides the default endpoint's origin; undefined allows any. @default undefined */
  readonly allowedEndpoints: readonly URL[] | undefined;
  /** Refuse every mutation, whatever `allowMutations` says: `mutations` is `deny`. @default false */
  readonly readOnly: boolean;
  /** Who decides a mutation the model allowed (see MutationPolicy). @default confirm */
  readonly mutations: MutationPolicy;
  /** Seconds the user has to answer a mutation's question; no answer by then declines it. @default 300 */
  readonly confirmTimeout: number;
  /** Largest decoded response body accepted from a query, in bytes. @default 1048576 */
  readonly maxResponseBytes: number;
  /** Most characters graphql_introspect returns in one answer; larger schemas are shown in parts. @default 40000 */
  readonly maxSchemaChars: number;
  /** Seconds an introspected schema is reused; 0 fetches it on every call. @default 300 */
  readonly schemaTtl: number;
  /** Most characters of compact JSON a query result keeps; longer ones are shortened. 0: off. @default 40000 */
  readonly maxResultChars: number;
  /** When documents are validated against the schema before they are sent. @default cached */
  readonly validate: ValidateMode;
  /** A file holding the default endpoint's schema (SDL, or an introspection result as JSON). @default none */
  readonly schemaFile: string | undefined;
  /** The schema read from schemaFile at start-up (src/prepare.ts); parsing leaves it undefined. */
  readonly schema?: IntrospectionQuery;
  /** Files and directories of .graphql/.gql operations, each named operation a tool. @default none */
  readonly operations: readonly string[];
  /** Files and directories of .md prompts (see src/prompts/prompt-files.ts), each file a prompt. @default none */
  readonly prompts: readonly string[];
  /** The built-in tools offered. @default both */
  readonly tools: readonly BuiltInTool[];
  /** How MCP clients reach the server. @default stdio */
  readonly transport: 'stdio' | 'http';
  /** Streamable HTTP settings; used only with transport http. */
  readonly http: HttpOptions;
}

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

/** The Streamable HTTP transport's settings (remote mode). */
export interface HttpOptions {
  /** Interface to listen on. @default 127.0.0.1 */
  readonly host: string;
  /** Port to listen on; 0 picks a free one. @default 3000 */
  readonly port: number;
  /** Bearer token every /mcp request must carry; a secret. @default none */
  readonly token: string | undefined;
  /** Allow listening on a non-loopback interface without a token. @default false */
  readonly allowUnauthenticated: boolean;
  /** Host names accepted in Host and Origin (against DNS rebinding); ['*'] accepts any. @default loopback names */
  readonly allowedHosts: readonly string[];
  /** Headers copied from each MCP request onto its GraphQL requests: incoming name → outgoing name. @default none */
  readonly forwardHeaders: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /** Most /mcp requests handled at once; more are answered 503 with Retry-After. */
  readonly maxInFlight: number;
  /** OAuth 2.1 resource server settings; undefined when remote mode does not use OAuth. */
  readonly oauth: OAuthOptions | undefined;
  /**
   * The key that signs the state of a mutation's question (2026-07-28 clients answer on a later request, which
   * another replica may serve); a secret of 32+ characters. @default a random key per process
   */
  readonly stateKey: string | undefined;
}

/** Remote mode as an OAuth 2.1 resource server (src/auth/oauth.ts). */
export interface OAuthOptions {
  /** The authorization server that issues the access tokens (its `iss`). */
  readonly issuer: URL;
  /** This server's resource identifier, which tokens must name in `aud`: its public /mcp URL. */
  readonly audience: string;
  /** Scopes every request's token must hold. @default none */
  readonly scopes: readonly string[];
  /** Where the issuer's keys are; else its metadata's jwks_uri. @default discovered */
  readonly jwksUri: URL | undefined;
  /** Scopes a token must hold to see and call a tool, by tool name. @default none */
  readonly toolScopes: ReadonlyMap<string, readonly string[]>;
}

/** What the command line asks for: run the server with a config, or print help or the version. */
export type Command = { kind: 'serve'; config: Config } | { kind: 'help' } | { kind: 'version' };

/** A bad startup value: reported as one line on stderr, exit code 2. Never holds a header value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const MAX_TIMEOUT_MS = 600_000;
/** The signing key of a question's state: what the SDK's HMAC codec asks for (256 bits). */
export const MIN_STATE_KEY_LENGTH = 32;
/** A bearer token shorter than this could be guessed. */
export const MIN_TOKEN_LENGTH = 16;
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** Below this an overview of a large schema cannot say anything useful. */
export const MIN_SCHEMA_CHARS = 1_000;

interface OptionSpec {
  readonly short?: string;
  readonly env?: string;
  readonly boolean?: boolean;
}

const OPTIONS = {
  endpoint: { short: 'e', env: 'GRAPHQL_ENDPOINT' },
  headers: { short: 'H', env: 'GRAPHQL_HEADERS' },
  timeout: { short: 't', env: 'GRAPHQL_TIMEOUT' },
  maxComplexity: { short: 'm', env: 'GRAPHQL_MAX_COMPLEXITY' },
  allowedEndpoints: { env: 'GRAPHQL_ALLOWED_ENDPOINTS' },
  readOnly: { env: 'GRAPHQL_READ_ONLY', boolean: true },
  mutations: { env: 'GRAPHQL_MUTATIONS' },
  confirmTimeout: { env: 'GRAPHQL_CONFIRM_TIMEOUT' },
  maxResponseBytes: { env: 'GRAPHQL_MAX_RESPONSE_BYTES' },
  maxSchemaChars: { env: 'GRAPHQL_MAX_SCHEMA_CHARS' },
  schemaTtl: { env: 'GRAPHQL_SCHEMA_TTL' },
  maxResultChars: { env: 'GRAPHQL_MAX_RESULT_CHARS' },
  validate: { env: 'GRAPHQL_VALIDATE' },
  schema: { env: 'GRAPHQL_SCHEMA_FILE' },
  operations: { env: 'GRAPHQL_OPERATIONS' },
  prompts: { env: 'GRAPHQL_PROMPTS' },
  tools: { env: 'GRAPHQL_TOOLS' },
  transport: { env: 'GRAPHQL_MCP_TRANSPORT' },
  host: { env: 'GRAPHQL_MCP_HOST' },
  port: { env: 'GRAPHQL_MCP_PORT' },
  httpToken: { env: 'MCP_HTTP_TOKEN' },
  allowUnauthenticated: { env: 'GRAPHQL_MCP_ALLOW_UNAUTHENTICATED', boolean: true },
  allowedHosts: { env: 'GRAPHQL_MCP_ALLOWED_HOSTS' },
  forwardHeaders: { env: 'GRAPHQL_MCP_FORWARD_HEADERS' },
  maxInFlight: { env: 'GRAPHQL_MCP_MAX_IN_FLIGHT' },
  oauthIssuer: { env: 'GRAPHQL_MCP_OAUTH_ISSUER' },
  oauthAudience: { env: 'GRAPHQL_MCP_OAUTH_AUDIENCE' },
  oauthScopes: { env: 'GRAPHQL_MCP_OAUTH_SCOPES' },
  oauthJwksUri: { env: 'GRAPHQL_MCP_OAUTH_JWKS_URI' },
  oauthToolScopes: { env: 'GRAPHQL_MCP_OAUTH_TOOL_SCOPES' },
  stateKey: { env: 'GRAPHQL_MCP_STATE_KEY' },
  help: { short: 'h', boolean: true },
  version: { short: 'v', boolean: true },
} as const satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTIONS;

/** Where a value came from, for messages: `--timeout` or `GRAPHQL_TIMEOUT`. */
interface RawValue {
  readonly value: string;
  readonly source: string;
}

export const USAGE = `Usage: graphql-mcp [options]

An MCP server (stdio) with two tools, graphql_query and graphql_introspect.

Options (each also read from the environment variable shown):
  -e, --endpoint <url>          default GraphQL endpoint   [GRAPHQL_ENDPOINT]
                                (default: http://localhost:4000/graphql)
  -H, --headers <json>          headers for the default endpoint, a JSON object,
                                e.g. '{"Authorization":"Bearer <token>"}'   [GRAPHQL_HEADERS]
  -t, --timeout <ms>            request deadline, 1 to 600000 (default: 30000)   [GRAPHQL_TIMEOUT]
  -m, --maxComplexity <n>       most fields a query may select, 0 = no limit
                                (default: 100)   [GRAPHQL_MAX_COMPLEXITY]
      --allowedEndpoints <urls> comma-separated endpoints the model may call besides
                                the default endpoint's origin (default: any)   [GRAPHQL_ALLOWED_ENDPOINTS]
      --readOnly                refuse every mutation (--mutations=deny)   [GRAPHQL_READ_ONLY]
      --mutations <policy>      who decides a mutation the model allowed: confirm (ask the
                                user when the client can), require-confirm, allow or deny
                                (default: confirm)   [GRAPHQL_MUTATIONS]
      --confirmTimeout <s>      seconds the user has to answer; then it is declined
                                (default: 300)   [GRAPHQL_CONFIRM_TIMEOUT]
      --maxResponseBytes <n>    largest response accepted (default: 1048576)   [GRAPHQL_MAX_RESPONSE_BYTES]
      --maxSchemaChars <n>      most characters of schema per answer, 1000 or more
                                (default: 40000)   [GRAPHQL_MAX_SCHEMA_CHARS]
      --schemaTtl <seconds>     how long a fetched schema is reused, 0 = never
                                (default: 300)   [GRAPHQL_SCHEMA_TTL]
      --maxResultChars <n>      longer query results are shortened to fit, 0 = never
                                (default: 40000)   [GRAPHQL_MAX_RESULT_CHARS]
      --validate <mode>         check documents against the schema before sending:
                                cached, always or off (default: cached)   [GRAPHQL_VALIDATE]
      --schema <file>           the endpoint's schema, SDL (.graphql) or introspection
                                JSON (.json): no introspection request   [GRAPHQL_SCHEMA_FILE]
      --operations <paths>      comma-separated .graphql/.gql files or directories;
                                each named operation becomes a tool   [GRAPHQL_OPERATIONS]
      --prompts <paths>         comma-separated .md files or directories; each file
                                becomes a prompt   [GRAPHQL_PROMPTS]
      --tools <names>           built-in tools offered: graphql_query, graphql_introspect
                                or none (default: both)   [GRAPHQL_TOOLS]

Remote mode (Streamable HTTP at POST /mcp, stateless; GET /health):
      --transport <stdio|http>  how clients connect (default: stdio)   [GRAPHQL_MCP_TRANSPORT]
      --host <name>             interface to listen on (default: 127.0.0.1)   [GRAPHQL_MCP_HOST]
      --port <n>                port, 0 = any free one (default: 3000)   [GRAPHQL_MCP_PORT]
      --httpToken <token>       bearer token required on /mcp, 16+ characters   [MCP_HTTP_TOKEN]
      --allowUnauthenticated    allow a non-loopback --host without --httpToken
                                [GRAPHQL_MCP_ALLOW_UNAUTHENTICATED]
      --allowedHosts <names>    host names accepted in Host/Origin, * = any
                                (default: localhost,127.0.0.1,[::1])   [GRAPHQL_MCP_ALLOWED_HOSTS]
      --forwardHeaders <names>  request headers passed on to the GraphQL endpoint,
                                Name or Incoming:Outgoing, comma-separated   [GRAPHQL_MCP_FORWARD_HEADERS]
      --maxInFlight <n>         most /mcp requests handled at once; more get 503
                                (default: 256)   [GRAPHQL_MCP_MAX_IN_FLIGHT]
      --oauthIssuer <url>       accept OAuth access tokens (JWT) of this authorization
                                server   [GRAPHQL_MCP_OAUTH_ISSUER]
      --oauthAudience <url>     this server's public /mcp URL, the tokens' audience
                                [GRAPHQL_MCP_OAUTH_AUDIENCE]
      --oauthScopes <list>      scopes every token needs, comma-separated
                                [GRAPHQL_MCP_OAUTH_SCOPES]
      --oauthJwksUri <url>      the issuer's keys (default: from its metadata)
                                [GRAPHQL_MCP_OAUTH_JWKS_URI]
      --oauthToolScopes <list>  tool=scope pairs: a token sees and calls the tool only
                                with the scope   [GRAPHQL_MCP_OAUTH_TOOL_SCOPES]
      --stateKey <secret>       signs the state of mutation questions; the same on every
                                replica, 32+ characters (default: random)   [GRAPHQL_MCP_STATE_KEY]

  -h, --help                    print this help
  -v, --version                 print the version

Forms: --name=value, --name value, -x value. Arguments win over environment variables.`;

/** argv (without node and script) and the environment → one validated, frozen Command. */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const given = readArguments(argv);
  if (given.has('help')) return { kind: 'help' };
  if (given.has('version')) return { kind: 'version' };

  const raw = (name: OptionName): RawValue | undefined => {
    const fromArgs = given.get(name);
    if (fromArgs !== undefined) return fromArgs;
    const envName = (OPTIONS[name] as OptionSpec).env;
    const fromEnv = envName === undefined ? undefined : env[envName];
    // An empty variable counts as unset: client configs often template them in empty.
    return fromEnv === undefined || fromEnv === '' ? undefined : { value: fromEnv, source: envName! };
  };

  const endpoint = optional(raw('endpoint'), readUrl) ?? new URL('http://localhost:4000/graphql');
  const mutations = readMutationPolicy(raw('mutations'), raw('readOnly'));
  const config: Config = {
    endpoint,
    headers: optional(raw('headers'), readHeaders) ?? new HeaderSet(),
    timeout: optional(raw('timeout'), (v) => readInteger(v, 1, MAX_TIMEOUT_MS)) ?? 30_000,
    maxComplexity: optional(raw('maxComplexity'), (v) => readInteger(v, 0, Number.MAX_SAFE_INTEGER)) ?? 100,
    allowedEndpoints: optional(raw('allowedEndpoints'), readUrlList),
    readOnly: mutations === 'deny',
    mutations,
    confirmTimeout: optional(raw('confirmTimeout'), (v) => readInteger(v, 1, 3_600)) ?? 300,
    maxResponseBytes:
      optional(raw('maxResponseBytes'), (v) => readInteger(v, 1, Number.MAX_SAFE_INTEGER)) ?? 1_048_576,
    maxSchemaChars:
      optional(raw('maxSchemaChars'), (v) => readInteger(v, MIN_SCHEMA_CHARS, Number.MAX_SAFE_INTEGER)) ??
      40_000,
    schemaTtl: optional(raw('schemaTtl'), (v) => readInteger(v, 0, 31_536_000)) ?? 300,
    maxResultChars:
      optional(raw('maxResultChars'), (v) => readInteger(v, 0, Number.MAX_SAFE_INTEGER)) ?? 40_000,
    validate: optional(raw('validate'), readValidateMode) ?? 'cached',
    schemaFile: optional(raw('schema'), readPath),
    operations: optional(raw('operations'), readPathList) ?? [],
    prompts: optional(raw('prompts'), readPathList) ?? [],
    tools: optional(raw('tools'), readTools) ?? BUILT_IN_TOOLS,
    transport: optional(raw('transport'), readTransport) ?? 'stdio',
    http: readHttpOptions(raw),
  };
  checkHttpOptions(config, raw);
  // Under an allow-list, a path a server may read as another is refused on every call: say so now, not then.
  const endpointProblem = config.allowedEndpoints === undefined ? undefined : ambiguousPath(endpoint);
  if (endpointProblem !== undefined) {
    throw new ConfigError(
      `${raw('endpoint')?.source ?? '--endpoint'}: ${describeEndpoint(endpoint)} cannot be used with --allowedEndpoints: ${endpointProblem}`,
    );
  }
  if (config.tools.length === 0 && config.operations.length === 0) {
    throw new ConfigError(`${raw('tools')!.source}=none leaves no tool to offer: give --operations too`);
  }
  return { kind: 'serve', config: Object.freeze(config) };
}

/** The non-empty, trimmed entries of a comma-separated value. */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function optional<T>(raw: RawValue | undefined, read: (raw: RawValue) => T): T | undefined {
  return raw === undefined ? undefined : read(raw);
}

function readArguments(argv: readonly string[]): Map<OptionName, RawValue> {
  const given = new Map<OptionName, RawValue>();
  // A boolean given without "=" just before a stray argument: "--readOnly false" meant --readOnly=false.
  let bareBoolean: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^(--?)([^=]*)(?:=([\s\S]*))?$/.exec(arg);
    // Never quoted: a stray argument is most often part of a value split by the shell, a token included.
    if (match === null) {
      const hint =
        bareBoolean === undefined
          ? "a value with spaces must be one argument, e.g. --headers='{…}'"
          : `${bareBoolean} takes a value only after "=", e.g. ${bareBoolean}=false`;
      throw new ConfigError(
        `unexpected argument at position ${i + 1}: it does not start with - (${hint}); see --help`,
      );
    }
    if (match[2] === '') {
      throw new ConfigError(
        `unexpected argument at position ${i + 1}: a dash without an option name; see --help`,
      );
    }
    const [, dashes, key, inlineValue] = match as unknown as [string, string, string, string?];
    const name = lookupOption(dashes, key, i + 1);
    const source = dashes + key;
    const spec: OptionSpec = OPTIONS[name];
    let value = inlineValue;
    bareBoolean = value === undefined && spec.boolean ? source : undefined;
    if (value === undefined) {
      if (spec.boolean) value = 'true';
      else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) {
          throw new ConfigError(`${source} needs a value; see --help`);
        }
        value = next;
        i++;
      }
    }
    if (given.has(name)) throw new ConfigError(`--${name} is given more than once`);
    given.set(name, { value, source });
  }
  return given;
}

function lookupOption(dashes: string, key: string, position: number): OptionName {
  if (dashes === '--' && Object.hasOwn(OPTIONS, key)) return key as OptionName;
  if (dashes === '-') {
    const found = (Object.keys(OPTIONS) as OptionName[]).find(
      (name) => (OPTIONS[name] as OptionSpec).short === key,
    );
    if (found) return found;
  }
  // Suggest the right spelling for near misses such as --max-complexity or --readonly.
  const squash = (s: string) => s.replace(/[-_]/g, '').toLowerCase();
  const near = (Object.keys(OPTIONS) as OptionName[]).find((name) => squash(name) === squash(key));
  const hint = near ? `; did you mean --${near}?` : '; see --help';
  // A name is shown; anything else (digits, symbols, a long run) may be a value that starts with a dash.
  const shown = /^[A-Za-z][A-Za-z_-]{0,29}$/.test(key)
    ? `${dashes}${key}`
    : `at position ${position} (not shown: it does not look like an option name)`;
  throw new ConfigError(`unknown option ${shown}${hint}`);
}

function readUrl({ value, source }: RawValue): URL {
  const result = parseEndpoint(value);
  if (typeof result === 'string') throw new ConfigError(`${source} ${result}`);
  return result;
}

function readPath({ value, source }: RawValue): string {
  const path = value.trim();
  if (path === '') throw new ConfigError(`${source} must be a file path`);
  return path;
}

function readPathList({ value, source }: RawValue): string[] {
  const paths = commaList(value);
  if (paths.length === 0)
    throw new ConfigError(`${source} must be a comma-separated list of files or directories`);
  return paths;
}

function readTools({ value, source }: RawValue): BuiltInTool[] {
  const names = commaList(value);
  if (names.length === 1 && names[0] === 'none') return [];
  const unknown = names.find((name) => !(BUILT_IN_TOOLS as readonly string[]).includes(name));
  if (names.length === 0 || unknown !== undefined) {
    const shown = unknown !== undefined && /^[\w-]{1,40}$/.test(unknown) ? ` (${unknown} is not one)` : '';
    throw new ConfigError(
      `${source} must be none or a comma-separated list of ${BUILT_IN_TOOLS.join(', ')}${shown}`,
    );
  }
  return BUILT_IN_TOOLS.filter((tool) => names.includes(tool));
}

function readValidateMode({ value, source }: RawValue): ValidateMode {
  const mode = value.trim().toLowerCase();
  if (mode === 'cached' || mode === 'always' || mode === 'off') return mode;
  throw new ConfigError(`${source} must be cached, always or off, got ${JSON.stringify(value.slice(0, 20))}`);
}

function readUrlList(raw: RawValue): URL[] {
  const entries = commaList(raw.value);
  if (entries.length === 0) {
    throw new ConfigError(`${raw.source} must be a comma-separated list of http(s) URLs`);
  }
  return entries.map((value) => {
    const url = readUrl({ value, source: raw.source });
    // An entry whose path a server may read as another could never be matched safely.
    const problem = ambiguousPath(url);
    if (problem !== undefined) {
      throw new ConfigError(`${raw.source}: the entry ${describeEndpoint(url)} cannot be used: ${problem}`);
    }
    return url;
  });
}

function readInteger({ value, source }: RawValue, min: number, max: number): number {
  const trimmed = value.trim();
  const number = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    throw new ConfigError(
      `${source} must be a whole number ${range}, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return number;
}

function readBoolean({ value, source }: RawValue): boolean {
  const lower = value.trim().toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new ConfigError(`${source} must be true, false, 1 or 0, got ${JSON.stringify(value.slice(0, 40))}`);
}

/** Never quotes the value: it holds credentials, and JSON.parse's messages quote their input. */
function readHeaders({ value, source }: RawValue): HeaderSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    const position = /position (\d+)/.exec(String(error))?.[1];
    const where = position === undefined ? '' : ` (error at character ${position})`;
    throw new ConfigError(
      `${source} must be a JSON object such as {"Authorization":"Bearer <token>"}; it is not valid JSON${where}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new ConfigError(
      `${source} must be a JSON object such as {"Authorization":"Bearer <token>"}, got ${kind}`,
    );
  }
  const headers = new HeaderSet();
  for (const [index, [name, headerValue]] of Object.entries(parsed).entries()) {
    const problem = headers.trySet(
      name,
      parseHeaderValue(headerValue),
      `the ${ordinal(index + 1)} header name`,
    );
    if (problem !== undefined) throw new ConfigError(`${source}: ${problem}`);
  }
  return headers;
}

/** --mutations, with --readOnly as another way to say deny (the two may not disagree). */
function readMutationPolicy(policy: RawValue | undefined, readOnly: RawValue | undefined): MutationPolicy {
  const denied = optional(readOnly, readBoolean) ?? false;
  if (policy === undefined) return denied ? 'deny' : 'confirm';
  const value = policy.value.trim().toLowerCase() as MutationPolicy;
  if (!MUTATION_POLICIES.includes(value)) {
    throw new ConfigError(
      `${policy.source} must be ${MUTATION_POLICIES.join(', ')}, got ${JSON.stringify(policy.value.slice(0, 20))}`,
    );
  }
  if (denied && value !== 'deny') {
    throw new ConfigError(
      `${readOnly!.source} refuses every mutation, but ${policy.source} is ${value}: choose one`,
    );
  }
  return value;
}

function readTransport({ value, source }: RawValue): 'stdio' | 'http' {
  if (value === 'stdio' || value === 'http') return value;
  throw new ConfigError(`${source} must be stdio or http, got ${JSON.stringify(value.slice(0, 20))}`);
}

function readHttpOptions(raw: (name: OptionName) => RawValue | undefined): HttpOptions {
  return {
    host: optional(raw('host'), readHost) ?? '127.0.0.1',
    port: optional(raw('port'), (v) => readInteger(v, 0, 65_535)) ?? 3000,
    token: optional(raw('httpToken'), readToken),
    allowUnauthenticated: optional(raw('allowUnauthenticated'), readBoolean) ?? false,
    allowedHosts: optional(raw('allowedHosts'), readHostList) ?? LOOPBACK_HOSTS,
    forwardHeaders: optional(raw('forwardHeaders'), readForwardHeaders) ?? [],
    maxInFlight: optional(raw('maxInFlight'), (v) => readInteger(v, 1, 100_000)) ?? 256,
    oauth: readOAuth(raw),
    stateKey: optional(raw('stateKey'), readStateKey),
  };
}

/** Never quotes the value: it is a secret. */
function readStateKey({ value, source }: RawValue): string {
  if (value.length < MIN_STATE_KEY_LENGTH) {
    throw new ConfigError(
      `${source} must be at least ${MIN_STATE_KEY_LENGTH} characters (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

/** --oauth*: all or nothing, with issuer and audience at least. */
function readOAuth(raw: (name: OptionName) => RawValue | undefined): OAuthOptions | undefined {
  const needed = ['oauthIssuer', 'oauthAudience'] as const;
  // Named before the two they need, when given: "--oauthScopes needs …" says why those are asked for.
  const names: OptionName[] = ['oauthScopes', 'oauthJwksUri', 'oauthToolScopes', ...needed];
  const given = names.find((name) => raw(name) !== undefined);
  if (given === undefined) return undefined;
  const issuer = raw('oauthIssuer');
  const audience = raw('oauthAudience');
  if (issuer === undefined || audience === undefined) {
    const source = raw(given)!.source;
    const missing = needed.filter((name) => raw(name) === undefined).map((name) => `--${name}`);
    if ((needed as readonly OptionName[]).includes(given))
      throw new ConfigError(`${source} needs ${missing[0]}, which is missing`);
    const which = missing.length === 2 ? 'both are missing' : `${missing[0]} is missing`;
    throw new ConfigError(`${source} needs --oauthIssuer and --oauthAudience; ${which}`);
  }
  return {
    issuer: readSecureUrl(issuer),
    audience: readSecureUrl(audience).href,
    scopes: optional(raw('oauthScopes'), readScopes) ?? [],
    jwksUri: optional(raw('oauthJwksUri'), readSecureUrl),
    toolScopes: optional(raw('oauthToolScopes'), readToolScopes) ?? new Map(),
  };
}

/** An https URL (http only on a loopback host, for local setups and tests). */
function readSecureUrl({ value, source }: RawValue): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`${source} must be a URL, e.g. https://auth.example.com`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new ConfigError(`${source} must be an https URL (http only on a loopback host)`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${source} must be a URL without user-info, query or fragment`);
  }
  return url;
}

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

function readScopes({ value, source }: RawValue): string[] {
  const scopes = value.split(/[\s,]+/).filter((scope) => scope !== '');
  if (scopes.length === 0 || !scopes.every((scope) => SCOPE.test(scope))) {
    throw new ConfigError(`${source} must be scopes separated by commas or spaces, e.g. mcp:use,api:read`);
  }
  return scopes;
}

/** `graphql_query=api:write,GetBook=books:read books:list`: each entry a tool and the scopes it needs. */
function readToolScopes({ value, source }: RawValue): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const entry of commaList(value)) {
    const match = /^([A-Za-z0-9_.-]{1,128})=(.+)$/.exec(entry);
    const scopes = match?.[2]!.split(/\s+/).filter((scope) => scope !== '') ?? [];
    if (match === null || scopes.length === 0 || !scopes.every((scope) => SCOPE.test(scope))) {
      throw new ConfigError(
        `${source} must be tool=scope entries separated by commas, e.g. graphql_query=api:write`,
      );
    }
    map.set(match[1]!, scopes);
  }
  return map;
}

// Rules across options: HTTP settings need HTTP mode, and an exposed server needs a token.
function checkHttpOptions(config: Config, raw: (name: OptionName) => RawValue | undefined): void {
  const httpOnly: OptionName[] = [
    'host',
    'port',
    'httpToken',
    'allowUnauthenticated',
    'allowedHosts',
    'forwardHeaders',
    'maxInFlight',
    'oauthIssuer',
    'oauthAudience',
    'oauthScopes',
    'oauthJwksUri',
    'oauthToolScopes',
    'stateKey',
  ];
  if (config.transport === 'stdio') {
    // Arguments only: an environment shared with a remote deployment may hold its variables.
    const given = httpOnly.map(raw).find((value) => value?.source.startsWith('-'));
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

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function readHost({ value, source }: RawValue): string {
  const host = value.trim();
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(host)) {
    throw new ConfigError(
      `${source} must be a host name or IP address, got ${JSON.stringify(value.slice(0, 60))}`,
    );
  }
  return host;
}

function readHostList(raw: RawValue): string[] {
  const names = commaList(raw.value).map((name) => name.toLowerCase());
  if (names.length === 0)
    throw new ConfigError(`${raw.source} must be a comma-separated list of host names, or *`);
  for (const name of names) if (name !== '*') readHost({ value: name, source: raw.source });
  return names;
}

/** Never quotes the value: it is a credential. */
function readToken({ value, source }: RawValue): string {
  if (value.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `${source} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces (e.g. from: openssl rand -hex 32)`,
    );
  }
  return value;
}

function readForwardHeaders(raw: RawValue): Array<{ from: string; to: string }> {
  const entries = commaList(raw.value);
  if (entries.length === 0)
    throw new ConfigError(`${raw.source} must be a comma-separated list of header names`);
  return entries.map((entry, index) => {
    const [from = '', to = from, ...rest] = entry.split(':').map((name) => name.trim());
    const probe = new HeaderSet();
    // "X-Api-Key: sk-…" is a header with its value, pasted where names go: the value would become a name.
    const problem =
      rest.length > 0
        ? 'it has more than one ":"'
        : /:\s/.test(entry)
          ? 'it reads like "Name: value" (a header with its value); this option takes names only, without spaces around ":" (values go in --headers or come with each request)'
          : (probe.trySet(from, 'x', 'its incoming name') ?? probe.trySet(to, 'x', 'its outgoing name'));
    // Located, not quoted: an entry that is no header name may be a header value ("X-Api-Key: sk-…").
    if (problem !== undefined) {
      throw new ConfigError(
        `${raw.source}: the ${ordinal(index + 1)} entry: ${problem}; expected Name or Incoming:Outgoing`,
      );
    }
    return { from, to };
  });
}
