// A config file's `apis.<name>.auth`: how a token for the API is obtained from an OAuth authorization server,
// per call. A nested object, so it has no command-line or environment form: read with the file (read.ts), each
// key where it is written, `${env:…}` filled in; the rules across the server's options are load.ts's. Its keys
// are declared once here, for the parser, the messages and the JSON Schema of config.schema.json.
import { HeaderError, HeaderSet } from '../http/headers.js';
import { isObject } from '../common/is-object.js';
import { ConfigError, integer, readScopes, readSecureUrl, type Given } from './parsers.js';
import type { ApiAuth, OAuthClientAuth, TokenExchangeAuth } from './types.js';

/** What reads a file's values: where a key path is written, and a value with its `${env:…}` filled in. */
export interface FileReader {
  at(keys: readonly string[]): string;
  expand(value: unknown, keys: readonly string[]): Pick<Given, 'value' | 'written' | 'filledIn'>;
}

/** The deadline of one request to the authorization server when `timeout` is not given, in ms. */
const DEFAULT_AUTH_TIMEOUT_MS = 5_000;
const MAX_AUTH_TIMEOUT_MS = 60_000;

const KINDS = ['tokenExchange', 'clientCredentials'] as const;
const CLIENT_AUTH = ['client_secret_basic', 'client_secret_post'] as const;
const GRANTS = ['token-exchange', 'on-behalf-of'] as const;

type JsonSchema = Readonly<Record<string, unknown>>;
const STRING: JsonSchema = { type: 'string' };

/** Every key of `auth.<kind>`, with how a file writes it and its one line for the docs. */
const KEYS = {
  tokenEndpoint: {
    json: STRING,
    help: 'the token endpoint (https; http only on a loopback host); or give `issuer`',
  },
  issuer: {
    json: STRING,
    help: 'the authorization server whose RFC 8414 or OpenID metadata names the token endpoint; or give `tokenEndpoint`',
  },
  clientId: { json: STRING, help: "this server's client id at the authorization server" },
  clientSecret: {
    json: { type: 'string', pattern: '\\$\\{env:[A-Za-z_][A-Za-z0-9_]*\\}' },
    help: 'its client secret, written as `${env:NAME}`: a secret, hidden wherever anything is shown',
  },
  audience: { json: STRING, help: "the API's name at the authorization server, sent as `audience`" },
  resource: { json: STRING, help: "the API's URI, sent as `resource` (RFC 8707)" },
  scope: {
    json: { anyOf: [STRING, { type: 'array', items: STRING }] },
    help: 'scopes to ask for, a list or separated by spaces or commas',
  },
  header: {
    json: STRING,
    help: 'the header the token is sent in, as `Bearer <token>` (default: `Authorization`)',
  },
  clientAuth: {
    json: { enum: [...CLIENT_AUTH] },
    help: 'how the client authenticates: `client_secret_basic` (default) or `client_secret_post`',
  },
  timeout: {
    json: { type: 'integer', minimum: 1, maximum: MAX_AUTH_TIMEOUT_MS },
    help: `deadline of one request to the authorization server in ms (default: ${DEFAULT_AUTH_TIMEOUT_MS})`,
  },
  grant: {
    json: { enum: [...GRANTS] },
    help: "`tokenExchange` only: `token-exchange` (RFC 8693, default) or `on-behalf-of` (Microsoft Entra's jwt-bearer grant; needs `scope`)",
  },
} as const satisfies Record<string, { json: JsonSchema; help: string }>;
type Key = keyof typeof KEYS;
const KEY_NAMES = Object.keys(KEYS) as Key[];

/** `apis.<name>.auth` as given → ApiAuth, or a ConfigError naming the key (never quoting the secret). */
export function readAuth(value: unknown, keys: readonly string[], reader: FileReader): ApiAuth {
  const example = `{"tokenExchange": {…}} or {"clientCredentials": {…}}`;
  const entries = isObject(value) ? Object.entries(value) : [];
  if (entries.length !== 1) {
    throw new ConfigError(`${reader.at(keys)} must be ${example}: one of the two`);
  }
  const [kind, settings] = entries[0]!;
  const at = [...keys, kind];
  if (!(KINDS as readonly string[]).includes(kind)) {
    const near = nearKey(kind, KINDS);
    throw new ConfigError(
      `${reader.at(at)} is no kind of auth${near ? `; did you mean ${near}?` : `: it is ${example}`}`,
    );
  }
  if (!isObject(settings)) throw new ConfigError(`${reader.at(at)} must be an object of its settings`);
  const given = new Map<Key, Given>();
  for (const [key, item] of Object.entries(settings)) {
    const path = [...at, key];
    if (!(KEY_NAMES as readonly string[]).includes(key) || (key === 'grant' && kind !== 'tokenExchange')) {
      const near = nearKey(key, KEY_NAMES);
      const hint =
        near && near !== key ? `; did you mean ${near}?` : ` (its keys: ${keysOf(kind).join(', ')})`;
      throw new ConfigError(`${reader.at(path)} is no key of ${kind}${hint}`);
    }
    if (item !== null)
      given.set(key as Key, { ...reader.expand(item, path), source: reader.at(path), argument: false });
  }
  const client = readClient(given, reader.at(at));
  if (kind === 'clientCredentials') return Object.freeze({ kind, ...client });
  return Object.freeze({ kind: 'tokenExchange', ...client, grant: readGrant(given, client) });
}

/** The keys a kind of auth takes, for messages. */
function keysOf(kind: string): Key[] {
  return KEY_NAMES.filter((key) => key !== 'grant' || kind === 'tokenExchange');
}

/** The settings both kinds share. */
function readClient(given: ReadonlyMap<Key, Given>, source: string): OAuthClientAuth {
  const tokenEndpoint = optional(given, 'tokenEndpoint', readTokenEndpoint);
  const issuer = optional(given, 'issuer', readSecureUrl);
  if ((tokenEndpoint === undefined) === (issuer === undefined)) {
    const which = tokenEndpoint === undefined ? 'neither is given' : 'give one, not both';
    throw new ConfigError(`${source} needs tokenEndpoint or issuer (whose metadata names it): ${which}`);
  }
  const clientId = required(given, 'clientId', source, readText);
  const clientSecret = required(given, 'clientSecret', source, readSecret);
  return {
    source,
    tokenEndpoint,
    issuer,
    clientId,
    clientSecret,
    audience: optional(given, 'audience', readText),
    resource: optional(given, 'resource', readResource),
    scope: optional(given, 'scope', readScopes) ?? [],
    header: optional(given, 'header', readHeaderName) ?? 'Authorization',
    clientAuth: optional(given, 'clientAuth', oneOf(CLIENT_AUTH)) ?? 'client_secret_basic',
    timeout: optional(given, 'timeout', integer(1, MAX_AUTH_TIMEOUT_MS)) ?? DEFAULT_AUTH_TIMEOUT_MS,
  };
}

/** `grant`; Entra's on-behalf-of names the API by its scope (`api://…/.default`) and takes no audience. */
function readGrant(given: ReadonlyMap<Key, Given>, client: OAuthClientAuth): TokenExchangeAuth['grant'] {
  const grant = optional(given, 'grant', oneOf(GRANTS)) ?? 'token-exchange';
  if (grant !== 'on-behalf-of') return grant;
  const source = given.get('grant')!.source;
  if (client.scope.length === 0) {
    throw new ConfigError(`${source}: on-behalf-of needs scope, the API's, e.g. "api://<app-id>/.default"`);
  }
  const named = (['audience', 'resource'] as const).find((key) => given.has(key));
  if (named !== undefined) {
    throw new ConfigError(
      `${given.get(named)!.source}: on-behalf-of names the API by scope alone; remove ${named}`,
    );
  }
  return grant;
}

function optional<T>(given: ReadonlyMap<Key, Given>, key: Key, parse: (given: Given) => T): T | undefined {
  const value = given.get(key);
  return value === undefined ? undefined : parse(value);
}

function required<T>(
  given: ReadonlyMap<Key, Given>,
  key: Key,
  source: string,
  parse: (given: Given) => T,
): T {
  if (!given.has(key)) throw new ConfigError(`${source} needs ${key}`);
  return parse(given.get(key)!);
}

/** A non-empty string without control characters, trimmed. */
function readText(given: Given): string {
  const text = typeof given.value === 'string' ? given.value.trim() : '';
  // eslint-disable-next-line no-control-regex
  if (text === '' || /[\x00-\x1f\x7f]/.test(text)) {
    throw new ConfigError(`${given.source} must be a non-empty string without control characters`);
  }
  return text;
}

/** The client secret: from the environment, never quoted. */
function readSecret(given: Given): string {
  if (typeof given.value !== 'string' || given.value === '') {
    throw new ConfigError(`${given.source} must be a string, written as "\${env:NAME}"`);
  }
  if (given.filledIn === undefined || given.filledIn.length === 0) {
    throw new ConfigError(
      `${given.source} must be written as "\${env:NAME}", so that the secret stays out of the file (it is not shown)`,
    );
  }
  return given.value;
}

/** A token endpoint: https (http on loopback), without user-info or fragment; a query (Azure B2C's `p`) is kept. */
function readTokenEndpoint(given: Given): URL {
  const text = typeof given.value === 'string' ? given.value : '';
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`${given.source} must be a URL, e.g. https://auth.example.com/oauth2/token`);
  }
  const bare = new URL(url.href);
  bare.search = '';
  readSecureUrl({ ...given, value: bare.href });
  return url;
}

/** RFC 8707: an absolute URI without a fragment. */
function readResource(given: Given): URL {
  let url: URL | undefined;
  try {
    url = typeof given.value === 'string' ? new URL(given.value.trim()) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `${given.source} must be an absolute URI without user-info or fragment, e.g. https://api.example.com/`,
    );
  }
  return url;
}

function readHeaderName(given: Given): string {
  const name = typeof given.value === 'string' ? given.value.trim() : '';
  try {
    new HeaderSet().set(name, '', 'it');
  } catch (error) {
    if (error instanceof HeaderError) throw new ConfigError(`${given.source}: ${error.message}`);
    throw error;
  }
  return name;
}

function oneOf<T extends string>(values: readonly T[]): (given: Given) => T {
  return (given) => {
    if ((values as readonly unknown[]).includes(given.value)) return given.value as T;
    throw new ConfigError(`${given.source} must be ${values.join(' or ')}`);
  };
}

/** The name a near miss (`client_id`, `ClientID`) means. */
function nearKey(key: string, names: readonly string[]): string | undefined {
  const squash = (text: string) => text.replace(/[-_]/g, '').toLowerCase();
  return names.find((name) => squash(name) === squash(key));
}

/** The JSON Schema of `apis.<name>.auth`, for config.schema.json. */
export function authJsonSchema(): JsonSchema {
  const settings = (kind: (typeof KINDS)[number]): JsonSchema => ({
    type: 'object',
    properties: Object.fromEntries(
      keysOf(kind).map((key) => [key, { description: plainHelp(KEYS[key].help), ...KEYS[key].json }]),
    ),
    required: ['clientId', 'clientSecret'],
    oneOf: [{ required: ['tokenEndpoint'] }, { required: ['issuer'] }],
    additionalProperties: false,
  });
  return {
    description:
      "How the API's token is obtained per call (this file only, no command-line or environment form): tokenExchange (RFC 8693: each user's own, remote mode with OAuth) or clientCredentials (the server's own)",
    type: 'object',
    properties: {
      tokenExchange: {
        description: "RFC 8693: the caller's verified access token is exchanged for one the API accepts",
        ...settings('tokenExchange'),
      },
      clientCredentials: {
        description: "RFC 6749 §4.4: the server's own token, for an API that knows no users",
        ...settings('clientCredentials'),
      },
    },
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
  };
}

/** The keys of `auth.<kind>` and their lines, for docs/config.md. */
export function authKeys(): ReadonlyArray<{ readonly key: string; readonly help: string }> {
  return KEY_NAMES.map((key) => ({ key, help: KEYS[key].help }));
}

function plainHelp(help: string): string {
  return help.replaceAll('`', '');
}
