// Every option, declared once: its name, short form, environment variable, default, parser and help line. From
// this table come the command line's syntax (node:util parseArgs), the environment fallbacks, the --help text,
// the remote-only check (src/config.ts) and the options tables of README.md and docs/remote.md
// (npm run docs:options).
// Adding an option: declare it here, read it in src/config.ts, run npm run docs:options.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  ConfigError,
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
  readScopes,
  readSecureUrl,
  readStateKey,
  readToken,
  readToolScopes,
  readTools,
  readTransport,
  readUrl,
  readUrlList,
  readValidateMode,
  type Parser,
} from './option-parsers.js';

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
  /** Text (from an argument, a variable or the default) → the typed value, or a ConfigError naming the source. */
  readonly parse: Parser<T>;
  readonly group: OptionGroup;
  /** `api`: one per API (a future config file's `apis.<name>.<option>`); `server`: one per process. */
  readonly scope: 'api' | 'server';
  /** Does something only with --transport=http: as an argument in stdio mode it is refused. */
  readonly remoteOnly?: boolean;
  /** Its value is a credential: no message quotes it (test/unit/options.test.ts checks every parser's errors). */
  readonly secret?: boolean;
  /** One line for --help and the docs' tables; `code` in backticks (kept in the docs, dropped in --help). */
  readonly help: string;
}

export const OPTIONS = {
  config: {
    env: 'GRAPHQL_MCP_CONFIG',
    value: 'file',
    parse: readPath,
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
    group: 'general',
    scope: 'api',
    help: 'the default GraphQL endpoint, http or https, without `user:password@`',
  },
  headers: {
    short: 'H',
    env: 'GRAPHQL_HEADERS',
    value: 'json',
    parse: readHeaders,
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
    group: 'general',
    scope: 'api',
    help: 'most fields a query may select; `0` turns the check off',
  },
  allowedEndpoints: {
    env: 'GRAPHQL_ALLOWED_ENDPOINTS',
    value: 'urls',
    unset: 'any',
    parse: readUrlList,
    group: 'general',
    scope: 'api',
    help: "comma-separated endpoints the model may call besides the default endpoint's origin; they receive the startup headers too",
  },
  readOnly: {
    env: 'GRAPHQL_READ_ONLY',
    default: 'false',
    parse: readBoolean,
    group: 'general',
    scope: 'api',
    help: 'refuse every mutation (`allowMutations` disappears from the tool): the same as `--mutations=deny`',
  },
  mutations: {
    env: 'GRAPHQL_MUTATIONS',
    value: 'policy',
    default: 'confirm',
    parse: readMutationPolicy,
    group: 'general',
    scope: 'api',
    help: 'who decides a mutation the model allowed: `confirm` (ask the user when the client can), `require-confirm`, `allow` or `deny`',
  },
  confirmTimeout: {
    env: 'GRAPHQL_CONFIRM_TIMEOUT',
    value: 's',
    default: '300',
    parse: integer(1, 3_600),
    group: 'tuning',
    scope: 'server',
    help: "seconds the user has to answer a mutation's question, 1 to 3600; no answer by then declines it",
  },
  maxResponseBytes: {
    env: 'GRAPHQL_MAX_RESPONSE_BYTES',
    value: 'n',
    default: '1048576',
    parse: integer(1),
    group: 'tuning',
    scope: 'api',
    help: 'largest decoded response body a query may return, in bytes',
  },
  maxSchemaChars: {
    env: 'GRAPHQL_MAX_SCHEMA_CHARS',
    value: 'n',
    default: '40000',
    parse: integer(MIN_SCHEMA_CHARS),
    group: 'tuning',
    scope: 'api',
    help: 'most characters of one `graphql_introspect` answer, notes included (1000 or more); larger schemas come in parts',
  },
  schemaTtl: {
    env: 'GRAPHQL_SCHEMA_TTL',
    value: 's',
    default: '300',
    parse: integer(0, 31_536_000),
    group: 'tuning',
    scope: 'api',
    help: 'seconds a fetched schema is reused, per endpoint and headers sent; `0` fetches it on every call',
  },
  maxResultChars: {
    env: 'GRAPHQL_MAX_RESULT_CHARS',
    value: 'n',
    default: '40000',
    parse: integer(0),
    group: 'tuning',
    scope: 'api',
    help: 'most characters of compact JSON a query result keeps; longer ones are shortened to fit; `0` turns it off',
  },
  validate: {
    env: 'GRAPHQL_VALIDATE',
    value: 'mode',
    default: 'cached',
    parse: readValidateMode,
    group: 'tuning',
    scope: 'api',
    help: "check documents against the endpoint's schema before sending them: `cached` (when it is known), `always` (fetch it first) or `off`",
  },
  schema: {
    env: 'GRAPHQL_SCHEMA_FILE',
    value: 'file',
    parse: readPath,
    group: 'general',
    scope: 'api',
    help: "the default endpoint's schema as SDL (`.graphql`) or an introspection result (`.json`); then no introspection request is sent",
  },
  operations: {
    env: 'GRAPHQL_OPERATIONS',
    value: 'paths',
    parse: readPathList,
    group: 'general',
    scope: 'api',
    help: 'comma-separated `.graphql`/`.gql` files or directories; each named operation becomes a tool',
  },
  prompts: {
    env: 'GRAPHQL_PROMPTS',
    value: 'paths',
    parse: readPathList,
    group: 'tuning',
    scope: 'server',
    help: 'comma-separated `.md` files or directories; each file becomes a prompt the user can pick',
  },
  tools: {
    env: 'GRAPHQL_TOOLS',
    value: 'names',
    default: 'graphql_query,graphql_introspect',
    parse: readTools,
    group: 'tuning',
    scope: 'server',
    help: 'the built-in tools offered, comma-separated; `none` offers only the operation tools',
  },
  transport: {
    env: 'GRAPHQL_MCP_TRANSPORT',
    value: 'stdio|http',
    default: 'stdio',
    parse: readTransport,
    group: 'remote',
    scope: 'server',
    help: 'how clients connect: `stdio`, or `http` for remote mode',
  },
  host: {
    env: 'GRAPHQL_MCP_HOST',
    value: 'name',
    default: '127.0.0.1',
    parse: readHost,
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
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'port to listen on; `0` picks a free one, printed on stderr',
  },
  httpToken: {
    env: 'MCP_HTTP_TOKEN',
    value: 'token',
    parse: readToken,
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
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'host names accepted in `Host` and `Origin` (against DNS rebinding), comma-separated; `*` accepts any',
  },
  forwardHeaders: {
    env: 'GRAPHQL_MCP_FORWARD_HEADERS',
    value: 'names',
    parse: readForwardHeaders,
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
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    help: 'most `/mcp` requests handled at once; beyond it `503` with `Retry-After: 1`',
  },
  oauthIssuer: {
    env: 'GRAPHQL_MCP_OAUTH_ISSUER',
    value: 'url',
    parse: readSecureUrl,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: 'accept OAuth access tokens (JWTs) of this authorization server (its `iss`)',
  },
  oauthAudience: {
    env: 'GRAPHQL_MCP_OAUTH_AUDIENCE',
    value: 'url',
    parse: (value, source) => readSecureUrl(value, source).href,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "this server's public `/mcp` URL, e.g. `https://mcp.example.com/mcp`; tokens must name it in `aud`",
  },
  oauthScopes: {
    env: 'GRAPHQL_MCP_OAUTH_SCOPES',
    value: 'list',
    parse: readScopes,
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
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "where the issuer's keys are",
  },
  oauthToolScopes: {
    env: 'GRAPHQL_MCP_OAUTH_TOOL_SCOPES',
    value: 'list',
    parse: readToolScopes,
    group: 'oauth',
    scope: 'server',
    remoteOnly: true,
    help: "`tool=scope` pairs, e.g. `graphql_query=api:write,AddReview=reviews:write`: a token without a tool's scope does not see it",
  },
  stateKey: {
    env: 'GRAPHQL_MCP_STATE_KEY',
    value: 'secret',
    unset: 'random per process',
    parse: readStateKey,
    group: 'remote',
    scope: 'server',
    remoteOnly: true,
    secret: true,
    help: "signs the state of a mutation's question; the same on every replica, 32+ characters",
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

/** An option's value as given, and where: `--timeout`, `-t` (an argument) or `GRAPHQL_TIMEOUT`. */
export interface GivenValue {
  readonly value: string;
  readonly source: string;
  readonly argument: boolean;
}

/** What argv asks for: help, the version, or a run with these options given as arguments. */
export type CommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'options'; readonly args: ReadonlyMap<string, GivenValue> };

/** Options as given, read with their parsers. */
export interface OptionValues {
  given(name: OptionName): GivenValue | undefined;
  get<N extends OptionName>(name: N): OptionValue<N>;
}

/** Where options are given: the command line, a config file's level. */
export type OptionSource = (name: OptionName) => GivenValue | undefined;

/** The options given by the first of `sources` that gives each, their defaults after that. */
export function optionValues(...sources: OptionSource[]): OptionValues {
  const given = (name: OptionName): GivenValue | undefined => {
    for (const source of sources) {
      const value = source(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  return {
    given,
    get<N extends OptionName>(name: N): OptionValue<N> {
      const { parse, default: fallback } = declaration(name);
      const value = given(name);
      if (value !== undefined) return parse(value.value, value.source) as OptionValue<N>;
      return (fallback === undefined ? undefined : parse(fallback, `--${name}`)) as OptionValue<N>;
    },
  };
}

/** The command line's options: an argument, else its environment variable. */
export function commandLineSource(
  args: ReadonlyMap<string, GivenValue>,
  env: NodeJS.ProcessEnv,
): OptionSource {
  return (name) => {
    const argument = args.get(name);
    if (argument !== undefined) return argument;
    const envName = OPTIONS[name].env;
    const value = env[envName];
    // An empty variable counts as unset: client configs often template them in empty.
    return value === undefined || value === '' ? undefined : { value, source: envName, argument: false };
  };
}

/**
 * Reads argv with parseArgs, then refuses what it lets through: unknown options, a value missing, an option
 * twice, a stray argument. A message locates what it cannot be sure is no secret: `at position 3`.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  const declared: Array<[string, { readonly short?: string; readonly value?: string }]> = [
    ...OPTION_NAMES.map((name) => [name, declaration(name)] as [string, OptionDeclaration]),
    ...Object.entries(COMMANDS),
  ];
  for (const [name, { short, value }] of declared) {
    options[name] = { type: value === undefined ? 'boolean' : 'string', ...(short && { short }) };
  }
  const given = new Map<string, GivenValue>();
  // A flag given without "=" just before a stray argument: "--readOnly false" meant --readOnly=false.
  let bareFlag: string | undefined;
  for (const token of tokensOf(argv, options)) {
    const position = token.index + 1;
    if (token.kind === 'option-terminator') throw noOptionName(position);
    if (token.kind === 'positional') {
      if (token.value === '-') throw noOptionName(position);
      // Never quoted: a stray argument is most often part of a value split by the shell, a token included.
      const hint =
        bareFlag === undefined
          ? "a value with spaces must be one argument, e.g. --headers='{…}'"
          : `${bareFlag} takes a value only after "=", e.g. ${bareFlag}=false`;
      throw new ConfigError(
        `unexpected argument at position ${position}: it does not start with - (${hint}); see --help`,
      );
    }
    const arg = argv[token.index]!;
    const source = token.rawName;
    // parseArgs also reads -xVALUE and -abc; we take --name, --name=value, -x and -x=value.
    if (!Object.hasOwn(options, token.name) || (arg !== source && !arg.startsWith(`${source}=`))) {
      throw unknownOption(arg, position);
    }
    const flag = options[token.name]!.type === 'boolean';
    // Of "-t=5", parseArgs takes "=5" for the value.
    let value = arg.startsWith(`${source}=`) ? arg.slice(source.length + 1) : token.value;
    bareFlag = flag && value === undefined ? source : undefined;
    if (flag) value ??= 'true';
    else if (value === undefined || (token.inlineValue === false && value.startsWith('--'))) {
      throw new ConfigError(`${source} needs a value; see --help`);
    }
    if (given.has(token.name)) throw new ConfigError(`--${token.name} is given more than once`);
    given.set(token.name, { value, source, argument: true });
  }
  if (given.has('help')) return { kind: 'help' };
  if (given.has('version')) return { kind: 'version' };
  return { kind: 'options', args: given };
}

type ArgToken =
  | { kind: 'option'; index: number; name: string; rawName: string; value?: string; inlineValue?: boolean }
  | { kind: 'positional'; index: number; value: string }
  | { kind: 'option-terminator'; index: number };

/**
 * parseArgs' tokens, not strict: its errors quote the argument (part of a token, perhaps) and refuse `-m -1`,
 * whose range we report. It reads "-h=x" as the short options -h, -= and -x and numbers the arguments after
 * such a group wrongly, so the arguments after one are parsed anew.
 */
function* tokensOf(argv: readonly string[], options: ParseArgsConfig['options']): Generator<ArgToken> {
  let start = 0;
  do {
    const args = argv.slice(start);
    const offset = start;
    start = argv.length;
    for (const token of parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
      .tokens) {
      const index = offset + token.index;
      yield { ...token, index };
      if (token.kind === 'option' && token.rawName.length === 2 && argv[index]!.length > 2) {
        start = index + 1;
        break;
      }
    }
  } while (start < argv.length);
}

function noOptionName(position: number): ConfigError {
  return new ConfigError(
    `unexpected argument at position ${position}: a dash without an option name; see --help`,
  );
}

function unknownOption(raw: string, position: number): ConfigError {
  const [, dashes, key] = /^(--?)([^=]*)/.exec(raw)!;
  if (key === '') return noOptionName(position);
  const near = nearName(key!, [...OPTION_NAMES, ...Object.keys(COMMANDS)]);
  const hint = near ? `; did you mean --${near}?` : '; see --help';
  // A name is shown; anything else (digits, symbols, a long run) may be a value that starts with a dash.
  const shown = /^[A-Za-z][A-Za-z_-]{0,29}$/.test(key!)
    ? `${dashes}${key}`
    : `at position ${position} (not shown: it does not look like an option name)`;
  return new ConfigError(`unknown option ${shown}${hint}`);
}

/** The name a near miss such as max-complexity or readonly means, to suggest the right spelling. */
export function nearName(key: string, names: readonly string[] = OPTION_NAMES): string | undefined {
  const squash = (text: string) => text.replace(/[-_]/g, '').toLowerCase();
  return names.find((name) => squash(name) === squash(key));
}

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
