// Every option, declared once: its name, short form, environment variable, default, parser, how a config file
// writes it, and its help line. From this table come the command line's syntax (read.ts), the environment
// fallbacks, the config file's keys and its JSON Schema (config.schema.json), the --help text, the remote-only
// check (load.ts) and the options tables of the docs (npm run docs:options).
// Adding an option: declare it here, read it in load.ts, run npm run docs:options.
import {
  integer,
  MAX_TIMEOUT_MS,
  MIN_SCHEMA_CHARS,
  readBoolean,
  readForwardHeaders,
  readHeaders,
  readHost,
  readHostList,
  readMutationPolicy,
  readPath,
  readPathList,
  readPersisted,
  readQueryMethod,
  readScalars,
  readScopes,
  readSecureUrl,
  readStateKey,
  readStoreUrl,
  readToken,
  readToolScopes,
  readTools,
  readTransport,
  readUrl,
  readUrlList,
  readValidateMode,
  type Parser,
  PERSISTED_MODES,
} from './parsers.js';
import { BUILT_IN_TOOLS, MUTATION_POLICIES } from './types.js';

/** Where an option is documented: the docs and --help show each group in its own table or section. */
export type OptionGroup = 'general' | 'tuning' | 'remote' | 'oauth';

export interface OptionDeclaration<T = unknown> {
  /** One letter: `-e` for --endpoint. */
  readonly short?: string;
  /** Read when the argument is not given; an empty variable counts as unset. */
  readonly env: string;
  /** The value's placeholder in --help (`--timeout <ms>`). A flag has none: `--readOnly` or `--readOnly=false`. */
  readonly value?: string;
  /** The value when none is given, written as it would be given; it goes through `parse` too. */
  readonly default?: string;
  /** What no value means, shown where a `default` would be (`any`). */
  readonly unset?: string;
  /** The value as given (text, or a config file's JSON) → the typed value, or a ConfigError naming the source. */
  readonly parse: Parser<T>;
  /** How a config file writes the value: the JSON Schema of config.schema.json. */
  readonly json: JsonSchema;
  readonly group: OptionGroup;
  /** `api`: one per API (a config file's `apis.<name>.<option>`); `server`: one per process. */
  readonly scope: 'api' | 'server';
  /** Does something only with --transport=http: as an argument in stdio mode it is refused. */
  readonly remoteOnly?: boolean;
  /** Its value is a credential: no message quotes it (test/unit/options.test.ts checks every parser's errors). */
  readonly secret?: boolean;
  /** One line for --help and the docs' tables; `code` in backticks (kept in the docs, dropped in --help). */
  readonly help: string;
}

type JsonSchema = Readonly<Record<string, unknown>>;
const STRING: JsonSchema = { type: 'string' };
const INTEGER: JsonSchema = { type: 'integer' };
const BOOLEAN: JsonSchema = { type: 'boolean' };
/** A list: an array of strings, or one comma-separated string. */
const LIST: JsonSchema = {
  anyOf: [
    { type: 'array', items: { type: 'string' } },
    { type: 'string', description: 'comma-separated' },
  ],
};
const oneOf = (values: readonly string[]): JsonSchema => ({ enum: [...values] });

export const OPTIONS = {
  config: {
    env: 'GRAPHQL_MCP_CONFIG',
    value: 'file',
    parse: readPath,
    json: STRING,
    group: 'general',
    scope: 'server',
    help: 'a JSON file naming several APIs, each with its own endpoint, headers and options (`docs/config.md`)',
  },
  endpoint: {
    short: 'e',
    env: 'GRAPHQL_ENDPOINT',
    value: 'url',
    default: 'http://localhost:4000/graphql',
    parse: readUrl,
    json: STRING,
    group: 'general',
    scope: 'api',
    help: 'the default GraphQL endpoint, http or https, without `user:password@`',
  },
  headers: {
    short: 'H',
    env: 'GRAPHQL_HEADERS',
    value: 'json',
    parse: readHeaders,
    json: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
      examples: [{ Authorization: 'Bearer ${env:API_TOKEN}' }],
    },
    group: 'general',
    scope: 'api',
    secret: true,
    help: 'headers for the default endpoint, a JSON object such as `{"Authorization":"Bearer <token>"}`; numbers and booleans become strings',
  },
  timeout: {
    short: 't',
    env: 'GRAPHQL_TIMEOUT',
    value: 'ms',
    default: '30000',
    parse: integer(1, MAX_TIMEOUT_MS),
    json: INTEGER,
    group: 'general',
    scope: 'api',
    help: 'total deadline of a request in ms (connect, headers and body), 1 to 600000',
  },
  maxComplexity: {
    short: 'm',
    env: 'GRAPHQL_MAX_COMPLEXITY',
    value: 'n',
    default: '100',
    parse: integer(0),
    json: INTEGER,
    group: 'general',
    scope: 'api',
    help: 'most fields a query may select; `0` turns the check off',
  },
  maxCost: {
    env: 'GRAPHQL_MAX_COST',
    value: 'n',
    default: '50000',
    parse: integer(0),
    json: INTEGER,
    group: 'general',
    scope: 'api',
    help: 'most list items a query may return by its estimate (list sizes multiplied through nesting); `0` turns the check off',
  },
  allowedEndpoints: {
    env: 'GRAPHQL_ALLOWED_ENDPOINTS',
    value: 'urls',
    unset: 'any',
    parse: readUrlList,
    json: LIST,
    group: 'general',
    scope: 'api',
    help: "comma-separated endpoints the model may call besides the default endpoint's origin; they receive the startup headers too",
  },
  readOnly: {
    env: 'GRAPHQL_READ_ONLY',
    default: 'false',
    parse: readBoolean,
    json: BOOLEAN,
    group: 'general',
    scope: 'api',
    help: 'refuse every mutation (`allowMutations` disappears from the tool): the same as `--mutations=deny`',
  },
  mutations: {
    env: 'GRAPHQL_MUTATIONS',
    value: 'policy',
    default: 'confirm',
    parse: readMutationPolicy,
    json: oneOf(MUTATION_POLICIES),
    group: 'general',
    scope: 'api',
    help: 'who decides a mutation the model allowed: `confirm` (ask the user when the client can), `require-confirm`, `allow` or `deny`',
  },
  confirmTimeout: {
    env: 'GRAPHQL_CONFIRM_TIMEOUT',
    value: 's',
    default: '300',
    parse: integer(1, 3_600),
    json: INTEGER,
    group: 'tuning',
    scope: 'server',
    help: "seconds the user has to answer a mutation's question, 1 to 3600; no answer by then declines it",
  },
  maxResponseBytes: {
    env: 'GRAPHQL_MAX_RESPONSE_BYTES',
    value: 'n',
    default: '1048576',
    parse: integer(1),
    json: INTEGER,
    group: 'tuning',
    scope: 'api',
    help: 'largest decoded response body a query may return, in bytes',
  },
  maxSchemaChars: {
    env: 'GRAPHQL_MAX_SCHEMA_CHARS',
    value: 'n',
    default: '40000',
    parse: integer(MIN_SCHEMA_CHARS),
    json: INTEGER,
    group: 'tuning',
    scope: 'api',
    help: 'most characters of one `graphql_introspect` answer, notes included (1000 or more); larger schemas come in parts',
  },
  schemaTtl: {
    env: 'GRAPHQL_SCHEMA_TTL',
    value: 's',
    default: '300',
    parse: integer(0, 31_536_000),
    json: INTEGER,
    group: 'tuning',
    scope: 'api',
    help: 'seconds a fetched schema is reused, per endpoint and headers sent; `0` fetches it on every call',
  },
  maxResultChars: {
    env: 'GRAPHQL_MAX_RESULT_CHARS',
    value: 'n',
    default: '40000',
    parse: integer(0),
    json: INTEGER,
    group: 'tuning',
    scope: 'api',
    help: 'most characters of compact JSON a query result keeps; longer ones are shortened to fit; `0` turns it off',
  },
  validate: {
    env: 'GRAPHQL_VALIDATE',
    value: 'mode',
    default: 'cached',
    parse: readValidateMode,
    json: oneOf(['cached', 'always', 'off']),
    group: 'tuning',
    scope: 'api',
    help: "check documents against the endpoint's schema before sending them: `cached` (when it is known), `always` (fetch it first) or `off`",
  },
  schema: {
    env: 'GRAPHQL_SCHEMA_FILE',
    value: 'file',
    parse: readPath,
    json: STRING,
    group: 'general',
    scope: 'api',
    help: "the default endpoint's schema as SDL (`.graphql`) or an introspection result (`.json`); then no introspection request is sent",
  },
  operations: {
    env: 'GRAPHQL_OPERATIONS',
    value: 'paths',
    parse: readPathList,
    json: LIST,
    group: 'general',
    scope: 'api',
    help: 'comma-separated `.graphql`/`.gql` files or directories; each named operation becomes a tool',
  },
  persistedQueries: {
    env: 'GRAPHQL_PERSISTED_QUERIES',
    value: 'mode',
    default: 'off',
    parse: readPersisted,
    json: oneOf(PERSISTED_MODES),
    group: 'tuning',
    scope: 'api',
    help: "how a manifest's operations are sent by id: `apollo` (extensions.persistedQuery, registered when the API allows), `documentId` or `doc_id`; `off` sends documents whole",
  },
  trustedDocumentsOnly: {
    env: 'GRAPHQL_TRUSTED_DOCUMENTS_ONLY',
    default: 'false',
    parse: readBoolean,
    json: BOOLEAN,
    group: 'tuning',
    scope: 'api',
    help: "the API runs only its trusted documents: the model's own are refused before anything is sent unless one of them (needs `--persistedQueries` and `--schema`)",
  },
  queryMethod: {
    env: 'GRAPHQL_QUERY_METHOD',
    value: 'method',
    default: 'auto',
    parse: readQueryMethod,
    json: oneOf(['auto', 'get', 'post']),
    group: 'tuning',
    scope: 'api',
    help: 'how queries travel: `auto` (POST, or GET once the endpoint answers 405 allowing it), `get` or `post`; a mutation always goes by POST',
  },
  scalars: {
    env: 'GRAPHQL_SCALARS',
    value: 'json',
    parse: readScalars,
    json: { type: 'object', additionalProperties: { type: 'object' } },
    group: 'tuning',
    scope: 'api',
    help: 'custom scalars of operation tools as JSON Schema, e.g. `{"Money":{"type":"string"}}`, over the defaults for JSON, DateTime, UUID and others (`docs/tools.md`)',
  },
  prompts: {
    env: 'GRAPHQL_PROMPTS',
    value: 'paths',
    parse: readPathList,
    json: LIST,
    group: 'tuning',
    scope: 'server',
    help: 'comma-separated `.md` files or directories; each file becomes a prompt the user can pick',
  },
  tools: {
    env: 'GRAPHQL_TOOLS',
    value: 'names',
    default: 'graphql_query,graphql_introspect',
    parse: readTools,
    json: { anyOf: [oneOf(['none']), { type: 'array', items: oneOf(BUILT_IN_TOOLS) }] },
    group: 'tuning',
    scope: 'server',
    help: 'the built-in tools offered, comma-separated; `none` offers only the operation tools',
  },
  traceDocuments: {
    env: 'GRAPHQL_TRACE_DOCUMENTS',
    default: 'false',
    parse: readBoolean,
    json: BOOLEAN,
    group: 'tuning',
    scope: 'server',
    help: 'with OpenTelemetry on (`OTEL_EXPORTER_OTLP_ENDPOINT`), record each GraphQL document in its span (`graphql.document`); variables never',
  },
  transport: {
    env: 'GRAPHQL_MCP_TRANSPORT',
    value: 'stdio|http',
    default: 'stdio',
    parse: readTransport,
    json: oneOf(['stdio', 'http']),
    group: 'remote',
    scope: 'server',
    help: 'how clients connect: `stdio`, or `http` for remote mode',
  },
  host: {
    env: 'GRAPHQL_MCP_HOST',
    value: 'name',
    default: '127.0.0.1',
    parse: readHost,
    json: STRING,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'interface to listen on',
  },
  port: {
    env: 'GRAPHQL_MCP_PORT',
    value: 'n',
    default: '3000',
    parse: integer(0, 65_535),
    json: INTEGER,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'port to listen on; `0` picks a free one, printed on stderr',
  },
  httpToken: {
    env: 'MCP_HTTP_TOKEN',
    value: 'token',
    parse: readToken,
    json: STRING,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    secret: true,
    help: 'every `/mcp` request must send `Authorization: Bearer <token>`; 16+ characters',
  },
  allowUnauthenticated: {
    env: 'GRAPHQL_MCP_ALLOW_UNAUTHENTICATED',
    default: 'false',
    parse: readBoolean,
    json: BOOLEAN,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'allow a non-loopback `--host` without authentication, when a proxy in front authenticates',
  },
  allowedHosts: {
    env: 'GRAPHQL_MCP_ALLOWED_HOSTS',
    value: 'names',
    default: 'localhost,127.0.0.1,[::1]',
    parse: readHostList,
    json: LIST,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'host names accepted in `Host` and `Origin` (against DNS rebinding), comma-separated; `*` accepts any',
  },
  forwardHeaders: {
    env: 'GRAPHQL_MCP_FORWARD_HEADERS',
    value: 'names',
    parse: readForwardHeaders,
    json: LIST,
    group: 'remote',
    scope: 'api',
    remoteOnly: true,
    help: "request headers copied onto that request's GraphQL requests, comma-separated: `Name`, or `Incoming:Outgoing` to rename",
  },
  maxInFlight: {
    env: 'GRAPHQL_MCP_MAX_IN_FLIGHT',
    value: 'n',
    default: '256',
    parse: integer(1, 100_000),
    json: INTEGER,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'most `/mcp` requests handled at once; beyond it `503` with `Retry-After: 1`',
  },
  oauthIssuer: {
    env: 'GRAPHQL_MCP_OAUTH_ISSUER',
    value: 'url',
    parse: readSecureUrl,
    json: STRING,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: 'accept OAuth access tokens (JWTs) of this authorization server (its `iss`)',
  },
  oauthAudience: {
    env: 'GRAPHQL_MCP_OAUTH_AUDIENCE',
    value: 'url',
    parse: (given) => readSecureUrl(given).href,
    json: STRING,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "this server's public `/mcp` URL, e.g. `https://mcp.example.com/mcp`; tokens must name it in `aud`",
  },
  oauthScopes: {
    env: 'GRAPHQL_MCP_OAUTH_SCOPES',
    value: 'list',
    parse: readScopes,
    json: LIST,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: 'scopes every token needs, separated by commas or spaces',
  },
  oauthJwksUri: {
    env: 'GRAPHQL_MCP_OAUTH_JWKS_URI',
    value: 'url',
    unset: "from the issuer's metadata",
    parse: readSecureUrl,
    json: STRING,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "where the issuer's keys are",
  },
  oauthToolScopes: {
    env: 'GRAPHQL_MCP_OAUTH_TOOL_SCOPES',
    value: 'list',
    parse: readToolScopes,
    json: {
      type: 'object',
      additionalProperties: { anyOf: [STRING, { type: 'array', items: STRING }] },
    },
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "`tool=scope` pairs, e.g. `graphql_query=api:write,AddReview=reviews:write`: a token without a tool's scope does not see it",
  },
  store: {
    env: 'GRAPHQL_MCP_STORE',
    value: 'url',
    unset: 'memory (one process)',
    parse: readStoreUrl,
    json: STRING,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    secret: true,
    help: 'where replicas share questions, answers and single-use marks: `redis://host:port/db` or `rediss://` (Redis 7 or Valkey); needs `--stateKey`',
  },
  keepAlive: {
    env: 'GRAPHQL_MCP_KEEP_ALIVE',
    value: 's',
    default: '15',
    parse: integer(1, 3_600),
    json: INTEGER,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: "seconds between the keep-alive comments of a stream that waits for a person's answer, below your proxies' idle timeouts",
  },
  maxOpenQuestions: {
    env: 'GRAPHQL_MCP_MAX_OPEN_QUESTIONS',
    value: 'n',
    default: '4',
    parse: integer(1, 1_000),
    json: INTEGER,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: "most questions about mutations one user may leave waiting at once on a replica (each holds one of --maxInFlight's places while the person thinks); beyond it a mutation is refused, nothing sent",
  },
  stateKey: {
    env: 'GRAPHQL_MCP_STATE_KEY',
    value: 'secret',
    unset: 'random per process',
    parse: readStateKey,
    json: STRING,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    secret: true,
    help: "signs what travels through clients (a question's state, the session id); the same on every replica, 32+ characters",
  },
} as const satisfies Record<string, OptionDeclaration>;

export type OptionName = keyof typeof OPTIONS;
export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** One option's declaration, as the common shape. */
export function declaration(name: OptionName): OptionDeclaration {
  return OPTIONS[name];
}

/** The two arguments that are no setting: they print and exit. */
export const COMMANDS = {
  help: { short: 'h', help: 'print this help' },
  version: { short: 'v', help: 'print the version' },
} as const;

/** The parsed value of an option: its default when not given, or undefined when it has none. */
export type OptionValue<N extends OptionName> = (typeof OPTIONS)[N] extends { readonly default: string }
  ? ReturnType<(typeof OPTIONS)[N]['parse']>
  : ReturnType<(typeof OPTIONS)[N]['parse']> | undefined;

/** Each group's heading in --help. */
const GROUP_TITLES: Record<OptionGroup, string> = {
  general: 'Options (each also read from the environment variable shown):',
  tuning: 'Limits and fine-tuning:',
  remote: 'Remote mode (--transport=http: Streamable HTTP at POST /mcp, stateless; GET /health):',
  oauth: 'Remote mode as an OAuth 2.1 resource server (--oauthIssuer and --oauthAudience at least):',
};

const USAGE_WIDTH = 110;
const USAGE_INDENT = 32;

/** The --help text. */
export function usage(): string {
  const groups = (Object.keys(GROUP_TITLES) as OptionGroup[]).map((group) =>
    [
      GROUP_TITLES[group],
      ...OPTION_NAMES.filter((name) => declaration(name).group === group).map((name) => {
        const declared = declaration(name);
        const shown = declared.default ?? declared.unset;
        const help = `${plain(declared.help)}${shown === undefined ? '' : ` (default: ${shown})`}`;
        return usageEntry(name, declared, help, `[${declared.env}]`);
      }),
    ].join('\n'),
  );
  const commands = Object.entries(COMMANDS).map(([name, command]) => usageEntry(name, command, command.help));
  return [
    'Usage: graphql-mcp [options]',
    '',
    'An MCP server with two tools, graphql_query and graphql_introspect, on stdio (or, in remote mode, HTTP).',
    '',
    groups.join('\n\n'),
    '',
    ...commands,
    '',
    'Forms: --name=value, --name value, -x value; a flag alone or --flag=true|false|1|0.',
    'Arguments win over environment variables; an empty variable counts as unset.',
  ].join('\n');
}

/** `  -t, --timeout <ms>` and the help text wrapped beside it, the environment variable last. */
function usageEntry(
  name: string,
  declared: { readonly short?: string; readonly value?: string },
  help: string,
  env?: string,
): string {
  const short = declared.short === undefined ? '    ' : `-${declared.short}, `;
  const left = `  ${short}--${name}${declared.value === undefined ? '' : ` <${declared.value}>`}`;
  const width = USAGE_WIDTH - USAGE_INDENT;
  const lines: string[] = [];
  let line = '';
  for (const word of help.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (env !== undefined && line.length + 3 + env.length > width) {
    lines.push(line);
    line = env;
  } else if (env !== undefined) line = `${line}   ${env}`;
  lines.push(line);
  const indent = ' '.repeat(USAGE_INDENT);
  const first = left.length < USAGE_INDENT ? [left.padEnd(USAGE_INDENT) + lines.shift()] : [left];
  return [...first, ...lines.map((text) => indent + text)].join('\n');
}

/** Help text without the docs' code marks. */
export function plain(help: string): string {
  return help.replaceAll('`', '');
}
